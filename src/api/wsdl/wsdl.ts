import { escapeXml, TEMPURI_NS } from '../format.js';

/** SOAPAction of GetAccessToken in both services, as ASP.NET derives it: namespace + operation. */
export const GET_ACCESS_TOKEN_ACTION = `${TEMPURI_NS}GetAccessToken`;

export interface WsdlParts {
  service: 'FlightService' | 'AuthService';
  /** `<s:element>`/`<s:complexType>` declarations of the schema, already in the `s:` prefix. */
  schema: string;
}

/**
 * An ASP.NET-style document/literal WSDL with a SOAP 1.1 and a SOAP 1.2 binding, both addressed at
 * `location` (the URL the client used, as ASP.NET does).
 */
export function buildWsdl({ service, schema }: WsdlParts, location: string): string {
  const loc = escapeXml(location);
  const op = (prefix: 'soap' | 'soap12') => `
    <wsdl:operation name="GetAccessToken">
      <${prefix}:operation soapAction="${GET_ACCESS_TOKEN_ACTION}" style="document"/>
      <wsdl:input><${prefix}:body use="literal"/></wsdl:input>
      <wsdl:output><${prefix}:body use="literal"/></wsdl:output>
    </wsdl:operation>`;
  return `<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:tns="${TEMPURI_NS}" targetNamespace="${TEMPURI_NS}">
  <wsdl:types>
    <s:schema elementFormDefault="qualified" targetNamespace="${TEMPURI_NS}">${schema}
    </s:schema>
  </wsdl:types>
  <wsdl:message name="GetAccessTokenSoapIn"><wsdl:part name="parameters" element="tns:GetAccessToken"/></wsdl:message>
  <wsdl:message name="GetAccessTokenSoapOut"><wsdl:part name="parameters" element="tns:GetAccessTokenResponse"/></wsdl:message>
  <wsdl:portType name="${service}Soap">
    <wsdl:operation name="GetAccessToken">
      <wsdl:input message="tns:GetAccessTokenSoapIn"/>
      <wsdl:output message="tns:GetAccessTokenSoapOut"/>
    </wsdl:operation>
  </wsdl:portType>
  <wsdl:binding name="${service}Soap" type="tns:${service}Soap">
    <soap:binding transport="http://schemas.xmlsoap.org/soap/http"/>${op('soap')}
  </wsdl:binding>
  <wsdl:binding name="${service}Soap12" type="tns:${service}Soap">
    <soap12:binding transport="http://schemas.xmlsoap.org/soap/http"/>${op('soap12')}
  </wsdl:binding>
  <wsdl:service name="${service}">
    <wsdl:port name="${service}Soap" binding="tns:${service}Soap"><soap:address location="${loc}"/></wsdl:port>
    <wsdl:port name="${service}Soap12" binding="tns:${service}Soap12"><soap12:address location="${loc}"/></wsdl:port>
  </wsdl:service>
</wsdl:definitions>
`;
}
