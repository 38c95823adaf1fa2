/**
 * What an AFD's signing certificate is, as far as this machine can tell without the ICP-Brasil
 * roots: a self-signed certificate (its issuer is itself) signs nothing anyone else can trust, and
 * a REP-P's AFD is to be signed with an ICP-Brasil certificate (Portaria 671, Annex V), whose
 * issuer names "O=ICP-Brasil" (every ICP-Brasil CA's name carries it). Shared by the export (the
 * key it signs with) and `timeclock afd verify` (the certificate in the .p7s).
 */
import crypto from 'node:crypto';

/** Problems with the signer, each a sentence naming the certificate; empty when none is seen. */
export function signerConcerns(cert: crypto.X509Certificate): string[] {
  const subject = cert.subject.split('\n').join(', ');
  const concerns: string[] = [];
  const selfSigned = cert.subject === cert.issuer && cert.verify(cert.publicKey);
  if (selfSigned) concerns.push(`the signing certificate (${subject}) is self-signed: no authority vouches for it`);
  else if (!/^O=ICP-Brasil$/m.test(cert.issuer))
    concerns.push(
      `the signing certificate (${subject}) is not issued by an ICP-Brasil authority (issuer ${cert.issuer.split('\n').join(', ')})`,
    );
  return concerns;
}
