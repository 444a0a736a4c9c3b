/** Test and demo certificates (node-forge): a CA, and server certificates that are valid or broken on purpose. */
export {
  type CaOptions,
  type CertificateAuthority,
  createCertificateAuthority,
  createServerCertificate,
  DEFAULT_VALIDITY_DAYS,
  KEY_BITS,
  type PemPair,
  type ServerCertificate,
  type ServerCertificateOptions,
  type ValidityOptions,
} from './generate.js';
export { type CertificateFiles, writeCertificateFiles } from './write.js';
