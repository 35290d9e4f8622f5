import { ConfigError } from '@svc/config';
import { parseVendorSimConfig } from './config';

describe('config', () => {
  it('has defaults for everything', () => {
    expect(parseVendorSimConfig({})).toMatchObject({
      VENDOR_SIM_PORT: 8090,
      VENDOR_SIM_HOST: '127.0.0.1',
      SIM_TTFT_MS: 0,
      SIM_TOKENS_PER_SECOND: 0,
      SIM_FAULT: '',
      LOG_LEVEL: 'info',
    });
  });

  it('reads the variables', () => {
    const config = parseVendorSimConfig({ VENDOR_SIM_PORT: '9000', SIM_TTFT_MS: '150', SIM_TOKENS_PER_SECOND: '40', SIM_FAULT: 'status:503', LOG_LEVEL: 'debug' });
    expect(config).toMatchObject({ VENDOR_SIM_PORT: 9000, SIM_TTFT_MS: 150, SIM_TOKENS_PER_SECOND: 40, SIM_FAULT: 'status:503', LOG_LEVEL: 'debug' });
  });

  it('rejects a malformed SIM_FAULT and negative latencies', () => {
    expect(() => parseVendorSimConfig({ SIM_FAULT: 'explode' })).toThrow(ConfigError);
    expect(() => parseVendorSimConfig({ SIM_TTFT_MS: '-1' })).toThrow(ConfigError);
  });
});
