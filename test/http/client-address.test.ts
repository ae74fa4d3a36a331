import { expect } from 'chai';
import { clientKey } from '../../server/http/client-address.js';

describe('clientKey', () => {
  it('counts IPv4 addresses one by one, mapped or not', () => {
    expect(clientKey('203.0.113.7')).to.equal('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).to.equal('203.0.113.7');
    expect(clientKey('203.0.113.8')).to.equal('203.0.113.8');
  });

  it('counts IPv6 addresses by their /64, however they are spelled', () => {
    expect(clientKey('2001:db8:0:1::5')).to.equal('2001:db8:0:1::/64');
    expect(clientKey('2001:0DB8:0000:0001:ffff::9')).to.equal('2001:db8:0:1::/64');
    expect(clientKey('::1')).to.equal('0:0:0:0::/64');
  });

  it('answers the same key for the same address again, and a new one after another address', () => {
    expect(clientKey('198.51.100.1')).to.equal('198.51.100.1');
    expect(clientKey('198.51.100.1')).to.equal('198.51.100.1');
    expect(clientKey('2001:db8::1')).to.equal('2001:db8:0:0::/64');
    expect(clientKey('198.51.100.1')).to.equal('198.51.100.1');
    expect(clientKey(undefined)).to.equal('unknown');
    expect(clientKey(undefined)).to.equal('unknown');
  });
});
