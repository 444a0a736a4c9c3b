"""A GetAccessToken SDK on a SOAP client generated from the served WSDL (python3-zeep), and the
harness `reportbo-emulator verify-client` runs (docs/verify-client.md). SOAP 1.1 and 1.2, API 1.6 and 1.7.

    reportbo-emulator verify-client --exec "python3 soap-zeep.py" --version 1.7 --variant soap11
"""
import os
import sys
import time
from datetime import timezone

import requests
import zeep
import zeep.exceptions
from zeep.transports import Transport

# API 1.6 answers no ExpiresAt; its tokens are taken to live as 1.7's do (spec "Limits": 8 hours).
LIFETIME_16_S = 8 * 60 * 60


class TokenError(Exception):
    """An error the provider reported, or a call that could not be completed."""

    def __init__(self, message, code=None, transient=False):
        super().__init__(message)
        self.code = code
        # A 5xx answer or a dropped connection: worth a retry after a pause.
        self.transient = transient


class StatusTransport(Transport):
    """Reads the HTTP status before zeep does: a 5xx answer that is no SOAP Fault (an HTML 503 of a
    proxy) is a transient failure, where zeep would report an unknown fault."""

    def post(self, address, message, headers):
        response = super().post(address, message, headers)
        if response.status_code >= 500 and 'xml' not in response.headers.get('Content-Type', ''):
            raise TokenError('GetAccessToken: HTTP %d' % response.status_code, transient=True)
        return response


class SoapTokenClient:
    def __init__(self, wsdl, version, variant, username, password, timeout_s=10.0, attempts=5, first_pause_s=0.25):
        self.version, self.username, self.password = version, username, password
        self.attempts, self.first_pause_s, self.timeout_s = attempts, first_pause_s, timeout_s
        # The WSDL names both bindings; the port of the chosen SOAP version is `<Service>Soap` or `<Service>Soap12`.
        self.client = zeep.Client(wsdl, transport=self.transport())
        service = next(iter(self.client.wsdl.services.values()))
        port = next(p for p in service.ports.values() if p.name.endswith('Soap12' if variant == 'soap12' else 'Soap'))
        self.service = self.client.bind(service.name, port.name)
        self.token, self.refresh_at = None, 0.0

    def transport(self):
        """Every call, the WSDL's included, ends after timeout_s."""
        return StatusTransport(timeout=self.timeout_s, operation_timeout=self.timeout_s)

    def get_token(self):
        """A valid token: the cached one until shortly before its ExpiresAt, else a new one."""
        if self.token is not None and time.time() < self.refresh_at:
            return self.token
        token, expires_at = self.call_with_retries()
        now = time.time()
        self.token = token
        # Refresh a fifth of the lifetime early, at most a minute: works for 8 hours and for seconds.
        self.refresh_at = expires_at - min(60.0, (expires_at - now) / 5)
        return token

    def call_with_retries(self):
        attempt = 1
        while True:
            try:
                return self.call()
            except TokenError as err:
                if not err.transient or attempt >= self.attempts:
                    raise
                time.sleep(self.first_pause_s * 2 ** (attempt - 1))
                attempt += 1

    def call(self):
        try:
            if self.version == '1.6':
                answer = self.service.GetAccessToken(username=self.username, password=self.password)
            else:
                answer = self.service.GetAccessToken(request={'Username': self.username, 'Password': self.password})
        except zeep.exceptions.Fault as fault:
            raise TokenError('GetAccessToken SOAP Fault: %s' % fault.message, code=fault.code)
        except zeep.exceptions.TransportError as err:
            if err.status_code >= 500:
                raise TokenError('GetAccessToken: HTTP %d' % err.status_code, transient=True)
            raise TokenError('GetAccessToken: unreadable answer (HTTP %d: %s)' % (err.status_code, err.message))
        except requests.exceptions.Timeout:
            raise TokenError('GetAccessToken: no answer within %g s' % self.timeout_s)
        except requests.exceptions.ConnectionError as err:
            raise TokenError('GetAccessToken: connection failed (%s)' % err, transient=True)
        except (zeep.exceptions.XMLSyntaxError, zeep.exceptions.XMLParseError, ValueError) as err:
            raise TokenError('GetAccessToken: unreadable answer (%s)' % err)
        if self.version == '1.6':
            if not isinstance(answer, str) or answer == '' or answer[0].isdigit():
                raise TokenError('GetAccessToken refused: %s' % answer, code=str(answer).split(' ', 1)[0])
            return answer, time.time() + LIFETIME_16_S
        if answer is None:
            raise TokenError('GetAccessToken: the answer holds no GetAccessTokenResult')
        if answer.TransactionCode not in (None, '0'):
            raise TokenError('GetAccessToken refused: %s - %s' % (answer.TransactionCode, answer.TransactionMessage),
                             code=answer.TransactionCode)
        if not answer.Token or answer.ExpiresAt is None:
            raise TokenError('GetAccessToken: the answer holds no Token and ExpiresAt')
        expires = answer.ExpiresAt
        if expires.tzinfo is None:
            expires = expires.replace(tzinfo=timezone.utc)
        return answer.Token, expires.timestamp()


def client_from_env():
    env = os.environ
    return SoapTokenClient(env['VERIFY_CLIENT_WSDL'], env['VERIFY_CLIENT_VERSION'], env['VERIFY_CLIENT_VARIANT'],
                           env['VERIFY_CLIENT_USERNAME'], env['VERIFY_CLIENT_PASSWORD'])


def harness(make_client=client_from_env):
    """Asks the SDK for VERIFY_CLIENT_TOKENS tokens as an application would, one line each."""
    tokens = int(os.environ.get('VERIFY_CLIENT_TOKENS', '1'))
    interval_s = int(os.environ.get('VERIFY_CLIENT_INTERVAL_MS', '0')) / 1000
    try:
        client = make_client()
        for i in range(tokens):
            if i > 0 and interval_s > 0:
                time.sleep(interval_s)
            print(client.get_token(), flush=True)
    except TokenError as err:
        print(err, file=sys.stderr)
        sys.exit(1)


if __name__ == '__main__':
    harness()
