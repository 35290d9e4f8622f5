import { allowAnyAddress, isPublicAddress } from './address-policy';

const PUBLIC_A = '93.184.216.34';
const PUBLIC_V6 = '2606:2800:220:1:248:1893:25c8:1946';

describe('isPublicAddress', () => {
  it.each([PUBLIC_A, '8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', PUBLIC_V6, '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8'])('accepts %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each(['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.0.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '192.0.0.8', '198.19.255.255', '224.0.0.1', '255.255.255.255', '::', '::1', '::ffff:127.0.0.1', '::ffff:192.168.0.1', '::7f00:1', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd00::1', 'ff02::1', '64:ff9b::a00:1', '2002:a00:1::', '2001::1', 'example.com', '', '2130706433'])(
    'refuses %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(false);
    },
  );
});

describe('allowAnyAddress', () => {
  it.each(['127.0.0.1', '::1', '10.0.0.1', '169.254.169.254', PUBLIC_A])('allows %s', (address) => {
    expect(allowAnyAddress(address)).toBe(true);
  });
});
