import type { WsdlParts } from './wsdl.js';

/** API 1.6 FlightService.asmx: GetAccessToken(username, password) → string (spec "3. GetAccessToken"). */
export const FLIGHT_SERVICE_WSDL: WsdlParts = {
  service: 'FlightService',
  schema: `
      <s:element name="GetAccessToken">
        <s:complexType><s:sequence>
          <s:element minOccurs="0" maxOccurs="1" name="username" type="s:string"/>
          <s:element minOccurs="0" maxOccurs="1" name="password" type="s:string"/>
        </s:sequence></s:complexType>
      </s:element>
      <s:element name="GetAccessTokenResponse">
        <s:complexType><s:sequence>
          <s:element minOccurs="0" maxOccurs="1" name="GetAccessTokenResult" type="s:string"/>
        </s:sequence></s:complexType>
      </s:element>`,
};
