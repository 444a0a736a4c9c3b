"""A python3-zeep client of AuthService.asmx for test/getaccesstoken-foreign-clients.test.ts.

Usage: zeep_client.py WSDL_URL MODE USERNAME PASSWORD
MODE: plain (as zeep sends it), no-soapaction (a minimal client that omits the header),
malformed (the envelope cut short), cp1252 (the envelope re-encoded as windows-1252 and declared so).
Prints one JSON object: {"token": ..., "transactionCode": ...} or {"error": ..., "status": ..., "content": ...}.
"""
import json
import sys

from zeep import Client
from zeep.exceptions import Fault, TransportError
from zeep.transports import Transport


class ModeTransport(Transport):
    def __init__(self, mode):
        super().__init__()
        self.mode = mode

    def post(self, address, message, headers):
        headers = dict(headers)
        if self.mode == "no-soapaction":
            headers.pop("SOAPAction", None)
        elif self.mode == "malformed":
            message = message[: len(message) - 20]
        elif self.mode == "cp1252":
            message = message.decode("utf-8").encode("cp1252")
            headers["Content-Type"] = "text/xml; charset=windows-1252"
        return super().post(address, message, headers)


def main():
    wsdl, mode, username, password = sys.argv[1:5]
    client = Client(wsdl, transport=ModeTransport(mode))
    try:
        result = client.service.GetAccessToken(request={"Username": username, "Password": password})
        print(json.dumps({"token": result.Token, "transactionCode": result.TransactionCode}))
    except TransportError as err:
        content = err.content or b""
        content = content.decode("utf-8", "replace") if isinstance(content, bytes) else content
        print(json.dumps({"error": "TransportError", "status": err.status_code, "content": content}))
    except Fault as err:
        print(json.dumps({"error": "Fault", "code": err.code, "message": err.message}))


main()
