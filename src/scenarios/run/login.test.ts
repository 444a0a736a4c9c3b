import { describe, expect, it } from 'vitest';
import { buildLoginCall, interpret } from './login.js';

const step = { username: 'u&1', password: 'p<2', casing: 'canonical', query: false } as const;

describe('login calls', () => {
  it('sends 1.7 SOAP 1.1 as a GetAccessToken envelope with a request element and SOAPAction', () => {
    const call = buildLoginCall({ ...step, version: '1.7', variant: 'soap' });
    expect(call.path).toBe('AuthService.asmx');
    expect(call.extraHeaders).toEqual({ SOAPAction: '"http://tempuri.org/GetAccessToken"' });
    expect(call.body).toContain(
      '<soap:Body><GetAccessToken xmlns="http://tempuri.org/"><request><Username>u&amp;1</Username><Password>p&lt;2</Password></request></GetAccessToken></soap:Body>',
    );
  });

  it('sends 1.6 JSON with lower-case keys and 1.6 SOAP 1.2 with the action in the Content-Type', () => {
    expect(buildLoginCall({ ...step, version: 1.6, variant: 'json' }).body).toBe(
      '{"username":"u&1","password":"p<2"}',
    );
    const soap12 = buildLoginCall({ ...step, version: '1.6', variant: 'soap12' });
    expect(soap12.path).toBe('FlightService.asmx');
    expect(soap12.contentType).toBe(
      'application/soap+xml; charset=utf-8; action="http://tempuri.org/GetAccessToken"',
    );
  });

  it('reads a 1.6 token that starts with digits as a token, and "1200 - …" as an error', () => {
    expect(interpret('"0179abc"')).toMatchObject({ ok: true, token: '0179abc', transactionCode: null });
    expect(interpret('"1200 - Invalid credentials"')).toMatchObject({
      ok: false,
      transactionCode: '1200',
      message: 'Invalid credentials',
    });
  });

  it('reads a 1.7 XML answer and a 1.7 JSON failure', () => {
    const xml =
      '<GetAccessTokenResponse xmlns="http://tempuri.org/"><Token>t-1</Token><TransactionCode/></GetAccessTokenResponse>';
    expect(interpret(xml)).toMatchObject({ ok: true, token: 't-1', transactionCode: null });
    const json = '{"Token":null,"TransactionCode":"1201","TransactionMessage":"not authorized for 1.7"}';
    expect(interpret(json)).toMatchObject({
      ok: false,
      transactionCode: '1201',
      message: 'not authorized for 1.7',
    });
  });
});
