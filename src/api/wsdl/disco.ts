import { escapeXml, TEMPURI_NS } from '../format.js';

/**
 * The DISCO document ASP.NET serves at `<service>.asmx?disco`: the contract (WSDL) and one `soap`
 * element per binding, so Mono's `disco`/`wsdl` and `svcutil` find the service from the plain URL.
 */
export function buildDisco(service: 'FlightService' | 'AuthService', location: string): string {
  const loc = escapeXml(location);
  return `<?xml version="1.0" encoding="utf-8"?>
<discovery xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://schemas.xmlsoap.org/disco/">
  <contractRef ref="${loc}?wsdl" docRef="${loc}" xmlns="http://schemas.xmlsoap.org/disco/scl/" />
  <soap address="${loc}" xmlns:q1="${TEMPURI_NS}" binding="q1:${service}Soap" xmlns="http://schemas.xmlsoap.org/disco/soap/" />
  <soap address="${loc}" xmlns:q2="${TEMPURI_NS}" binding="q2:${service}Soap12" xmlns="http://schemas.xmlsoap.org/disco/soap/" />
</discovery>`;
}
