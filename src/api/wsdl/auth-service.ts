import type { WsdlParts } from './wsdl.js';

/**
 * API 1.7 AuthService.asmx: GetAccessToken(request: GetAccessTokenRequest) → GetAccessTokenResponse
 * (spec "3. GetAccessToken" and "GetAccessTokenResponse (API 1.7)"). Optional fields are omitted when null.
 */
export const AUTH_SERVICE_WSDL: WsdlParts = {
  service: 'AuthService',
  schema: `
      <s:element name="GetAccessToken">
        <s:complexType><s:sequence>
          <s:element minOccurs="0" maxOccurs="1" name="request" type="tns:GetAccessTokenRequest"/>
        </s:sequence></s:complexType>
      </s:element>
      <s:complexType name="GetAccessTokenRequest"><s:sequence>
        <s:element minOccurs="0" maxOccurs="1" name="Username" type="s:string"/>
        <s:element minOccurs="0" maxOccurs="1" name="Password" type="s:string"/>
      </s:sequence></s:complexType>
      <s:element name="GetAccessTokenResponse">
        <s:complexType><s:sequence>
          <s:element minOccurs="0" maxOccurs="1" name="GetAccessTokenResult" type="tns:GetAccessTokenResponse"/>
        </s:sequence></s:complexType>
      </s:element>
      <s:complexType name="GetAccessTokenResponse"><s:sequence>
        <s:element minOccurs="0" maxOccurs="1" name="Token" type="s:string"/>
        <s:element minOccurs="0" maxOccurs="1" name="ExpiresAt" type="s:dateTime"/>
        <s:element minOccurs="0" maxOccurs="1" name="IDWeb" type="s:int"/>
        <s:element minOccurs="0" maxOccurs="1" name="WebDescription" type="s:string"/>
        <s:element minOccurs="0" maxOccurs="1" name="TransactionCode" type="s:string"/>
        <s:element minOccurs="0" maxOccurs="1" name="TransactionMessage" type="s:string"/>
      </s:sequence></s:complexType>`,
};
