import { z, parseConfig, env, ConfigError } from './index';

describe('parseConfig', () => {
  const schema = z.object({ PORT: env.port(8080), FLAG: env.bool(false), URL: env.url('http://x') });

  it('applies defaults and coerces values', () => {
    expect(parseConfig('t', schema, { PORT: '9000', FLAG: 'true' })).toEqual({ PORT: 9000, FLAG: true, URL: 'http://x' });
  });

  it('returns a frozen object', () => {
    expect(Object.isFrozen(parseConfig('t', schema, {}))).toBe(true);
  });

  it('names the service and the bad variable in one line', () => {
    expect(() => parseConfig('edge', schema, { PORT: 'abc' })).toThrow(ConfigError);
    expect(() => parseConfig('edge', schema, { PORT: 'abc' })).toThrow(/^edge: invalid configuration: PORT: /);
  });
});
