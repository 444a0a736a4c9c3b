"""A small GetAccessToken SDK on Python's standard library (3.8 or later), and the harness
`reportbo-emulator verify-client` runs (docs/verify-client.md). JSON and XML, API 1.6 and 1.7.

    reportbo-emulator verify-client --exec "python3 python-stdlib.py" --version 1.6 --variant json
"""
import json
import os
import socket
import sys
import time
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from datetime import datetime
from xml.sax.saxutils import escape

# API 1.6 answers no ExpiresAt; its tokens are taken to live as 1.7's do (spec "Limits": 8 hours).
LIFETIME_16_S = 8 * 60 * 60


class TokenError(Exception):
    """An error the provider reported, or a call that could not be completed."""

    def __init__(self, message, code=None, transient=False):
        super().__init__(message)
        self.code = code
        # A 5xx answer or a dropped connection: worth a retry after a pause.
        self.transient = transient


class TokenClient:
    def __init__(self, endpoint, version, variant, username, password, timeout_s=10.0, attempts=5, first_pause_s=0.25):
        self.endpoint, self.version, self.variant = endpoint, version, variant
        self.username, self.password = username, password
        self.timeout_s, self.attempts, self.first_pause_s = timeout_s, attempts, first_pause_s
        self.token, self.expires_at, self.refresh_at = None, 0.0, 0.0

    def get_token(self):
        """A valid token: the cached one until shortly before its ExpiresAt, else a new one."""
        if self.token is not None and self.fresh(time.time()):
            return self.token
        token, expires_at = self.call_with_retries()
        now = time.time()
        self.token, self.expires_at = token, expires_at
        # Refresh a fifth of the lifetime early, at most a minute: works for 8 hours and for seconds.
        self.refresh_at = expires_at - min(60.0, (expires_at - now) / 5)
        return token

    def fresh(self, now):
        return now < self.refresh_at

    def call_with_retries(self):
        attempt = 1
        while True:
            try:
                return self.call()
            except TokenError as err:
                if not self.retryable(err) or attempt >= self.attempts:
                    raise
                time.sleep(self.pause_s(attempt))
                attempt += 1

    def retryable(self, err):
        """Only transient failures are retried; a refused password or version never gets right by asking again."""
        return err.transient

    def pause_s(self, attempt):
        """250 ms, 500 ms, 1 s, ...: longer each time, so a struggling provider is not stormed."""
        return self.first_pause_s * 2 ** (attempt - 1)

    def call(self):
        if self.variant == 'json':
            keys = ('username', 'password') if self.version == '1.6' else ('Username', 'Password')
            body = json.dumps({keys[0]: self.username, keys[1]: self.password}).encode('utf-8')
            media = 'application/json'
        else:
            body = ('<GetAccessTokenRequest><Username>%s</Username><Password>%s</Password></GetAccessTokenRequest>'
                    % (escape(self.username), escape(self.password))).encode('utf-8')
            media = 'application/xml'
        request = urllib.request.Request(self.endpoint, data=body, method='POST',
                                         headers={'Content-Type': media + '; charset=utf-8'})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as res:
                text = res.read().decode('utf-8')
        except urllib.error.HTTPError as err:
            raise TokenError('GetAccessToken: HTTP %d' % err.code, transient=err.code >= 500)
        except (socket.timeout, TimeoutError):
            raise TokenError('GetAccessToken: no answer within %g s' % self.timeout_s)
        except urllib.error.URLError as err:
            if isinstance(err.reason, (socket.timeout, TimeoutError)):
                raise TokenError('GetAccessToken: no answer within %g s' % self.timeout_s)
            raise TokenError('GetAccessToken: connection failed (%s)' % err.reason, transient=True)
        except (ConnectionError, OSError) as err:
            raise TokenError('GetAccessToken: connection failed (%s)' % err, transient=True)
        if self.version == '1.6':
            return self.read16(self.json_value(text) if self.variant == 'json' else self.xml_root(text).text)
        return self.read17(text)

    def read16(self, answer):
        """API 1.6: the answer is the token, or an error string that begins with its code ("1200 - ...")."""
        if not isinstance(answer, str) or answer == '':
            raise TokenError('GetAccessToken: unexpected answer %r' % (answer,))
        if answer[0].isdigit():
            raise TokenError('GetAccessToken refused: %s' % answer, code=answer.split(' ', 1)[0])
        return answer, time.time() + LIFETIME_16_S

    def read17(self, text):
        """API 1.7: a GetAccessTokenResponse; it failed when TransactionCode is neither null nor "0"."""
        if self.variant == 'json':
            value = self.json_value(text) or {}
        else:
            root = self.xml_root(text)
            value = {child.tag.split('}')[-1]: child.text for child in root}
        code = value.get('TransactionCode')
        if code not in (None, '0'):
            raise TokenError('GetAccessToken refused: %s - %s' % (code, value.get('TransactionMessage')), code=str(code))
        token, expires = value.get('Token'), value.get('ExpiresAt')
        if not token or not expires:
            raise TokenError('GetAccessToken: the answer holds no Token and ExpiresAt: %s' % text[:200])
        return token, datetime.fromisoformat(expires.replace('Z', '+00:00')).timestamp()

    @staticmethod
    def json_value(text):
        try:
            return json.loads(text)
        except ValueError:
            raise TokenError('GetAccessToken: unreadable JSON answer: %s' % text[:200])

    @staticmethod
    def xml_root(text):
        try:
            return ET.fromstring(text.encode('utf-8'))
        except ET.ParseError:
            raise TokenError('GetAccessToken: unreadable XML answer: %s' % text[:200])


def client_from_env():
    env = os.environ
    return TokenClient(env['VERIFY_CLIENT_ENDPOINT'], env['VERIFY_CLIENT_VERSION'], env['VERIFY_CLIENT_VARIANT'],
                       env['VERIFY_CLIENT_USERNAME'], env['VERIFY_CLIENT_PASSWORD'])


def harness(client=None):
    """Asks the SDK for VERIFY_CLIENT_TOKENS tokens as an application would, one line each."""
    client = client or client_from_env()
    tokens = int(os.environ.get('VERIFY_CLIENT_TOKENS', '1'))
    interval_s = int(os.environ.get('VERIFY_CLIENT_INTERVAL_MS', '0')) / 1000
    try:
        for i in range(tokens):
            if i > 0 and interval_s > 0:
                time.sleep(interval_s)
            print(client.get_token(), flush=True)
    except TokenError as err:
        print(err, file=sys.stderr)
        sys.exit(1)


if __name__ == '__main__':
    harness()
