import {
  checkHttpProof,
  checkServiceProof,
  SERVICE_PROOF_WINDOW_MS,
  signHttpProof,
  signServiceProof,
  useServiceKeys,
} from '../../src/grpc/service-auth';

const CURRENT = 'the-current-key-of-at-least-32-characters';
const PREVIOUS = 'the-retired-key-of-at-least-32-characters';
const claims = { method: '/cms.content.v1.ContentService/Handle', requestId: 'r1', clientAddress: '', bodyDigest: 'd' };

describe('service proofs', () => {
  beforeAll(() => useServiceKeys({ SERVICE_AUTH_KEY: CURRENT, SERVICE_AUTH_PREVIOUS_KEY: PREVIOUS }));

  it('holds under the current key and, during a rotation, the previous one', () => {
    const now = Date.now();
    expect(checkServiceProof(signServiceProof({ ...claims, issuedAt: now }), claims, now)).toBeUndefined();
    const byRetired = signServiceProof({ ...claims, issuedAt: now }, Buffer.from(PREVIOUS));
    expect(checkServiceProof(byRetired, claims, now)).toBeUndefined();
    const byOther = signServiceProof({ ...claims, issuedAt: now }, Buffer.from('x'.repeat(40)));
    expect(checkServiceProof(byOther, claims, now)).toBe('service proof does not match');
  });

  it('covers every claim: another method, request id, client address or body does not match', () => {
    const now = Date.now();
    const proof = signServiceProof({ ...claims, issuedAt: now });
    for (const changed of [
      { method: '/cms.identity.v1.IdentityService/Handle' },
      { requestId: 'r2' },
      { clientAddress: '10.0.0.1' },
      { bodyDigest: 'e' },
    ])
      expect(checkServiceProof(proof, { ...claims, ...changed }, now)).toBe('service proof does not match');
  });

  it('is refused outside its window either way, and when missing or malformed', () => {
    const now = Date.now();
    const early = signServiceProof({ ...claims, issuedAt: now - SERVICE_PROOF_WINDOW_MS - 1 });
    const late = signServiceProof({ ...claims, issuedAt: now + SERVICE_PROOF_WINDOW_MS + 1 });
    expect(checkServiceProof(early, claims, now)).toBe('service proof outside its time window');
    expect(checkServiceProof(late, claims, now)).toBe('service proof outside its time window');
    expect(checkServiceProof(undefined, claims, now)).toBe('no service proof');
    expect(checkServiceProof(Buffer.from('v1'), claims, now)).toBe('no service proof');
    expect(checkServiceProof(`v1.${now}.short`, claims, now)).toBe('malformed service proof');
  });

  it('signs plain HTTP requests (the file hop) over method, target, request id and claim header', () => {
    const request = { method: 'GET', path: '/files', requestId: 'r1', claim: 'eyJ9' };
    const now = Date.now();
    const proof = signHttpProof({ ...request, issuedAt: now });
    expect(checkHttpProof(proof, request, now)).toBeUndefined();
    for (const changed of [{ method: 'PATCH' }, { path: '/files?x' }, { requestId: 'r2' }, { claim: 'eyJ8' }])
      expect(checkHttpProof(proof, { ...request, ...changed }, now)).toBe('service proof does not match');
    expect(checkHttpProof(proof, request, now + SERVICE_PROOF_WINDOW_MS + 1)).toBe(
      'service proof outside its time window',
    );
  });

  it('keeps one key per process', () => {
    expect(() => useServiceKeys({ SERVICE_AUTH_KEY: CURRENT })).not.toThrow();
    expect(() => useServiceKeys({ SERVICE_AUTH_KEY: 'y'.repeat(40) })).toThrow(/another SERVICE_AUTH_KEY/);
  });
});
