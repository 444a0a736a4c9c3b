<?php
// A PHP SoapClient of AuthService.asmx for test/getaccesstoken-foreign-clients.test.ts.
// Usage: php php_soap_client.php WSDL_URL MODE USERNAME PASSWORD
// MODE: plain (SoapClient's own transport), no-soapaction (the envelope SoapClient wrote, posted
// without a SOAPAction header, as a minimal client does), malformed (SoapClient's transport, the
// envelope cut short), cp1252 (the envelope re-encoded as windows-1252 and declared so).
// Prints one JSON object: {"token": ..., "transactionCode": ...} or {"error": ..., "code": ..., "message": ...}.

class ModeClient extends SoapClient
{
    public string $mode = 'plain';

    public function __doRequest($request, $location, $action, $version, $oneWay = false): ?string
    {
        if ($this->mode === 'malformed') {
            return parent::__doRequest(substr($request, 0, -20), $location, $action, $version, $oneWay);
        }
        if ($this->mode === 'plain') {
            return parent::__doRequest($request, $location, $action, $version, $oneWay);
        }
        $type = 'text/xml; charset=utf-8';
        $headers = ["Content-Type: $type"];
        if ($this->mode === 'cp1252') {
            $request = iconv('UTF-8', 'WINDOWS-1252', $request);
            $headers = ['Content-Type: text/xml; charset=windows-1252', "SOAPAction: \"$action\""];
        }
        $context = stream_context_create(['http' => [
            'method' => 'POST',
            'header' => implode("\r\n", $headers),
            'content' => $request,
            'ignore_errors' => true,
        ]]);
        $answer = file_get_contents($location, false, $context);
        return $answer === false ? null : $answer;
    }
}

[$script, $wsdl, $mode, $username, $password] = $argv;
$client = new ModeClient($wsdl, ['soap_version' => SOAP_1_1, 'exceptions' => true, 'cache_wsdl' => WSDL_CACHE_NONE]);
$client->mode = $mode;
try {
    $result = $client->GetAccessToken(['request' => ['Username' => $username, 'Password' => $password]]);
    $r = $result->GetAccessTokenResult;
    echo json_encode(['token' => $r->Token ?? null, 'transactionCode' => $r->TransactionCode ?? null]), "\n";
} catch (SoapFault $fault) {
    echo json_encode(['error' => 'SoapFault', 'code' => $fault->faultcode, 'message' => $fault->getMessage()]), "\n";
}
