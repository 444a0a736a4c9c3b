/** Test and demo certificates (node-forge): a CA, and server certificates that are valid or broken on purpose. */
export {
  type CertificateAuthority,
  createCertificateAuthority,
  createServerCertificate,
  type ServerCertificate,
} from './generate.js';
export { writeCertificateFiles } from './write.js';
