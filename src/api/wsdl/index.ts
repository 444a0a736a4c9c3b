export { AUTH_SERVICE_WSDL } from './auth-service.js';
export { buildDisco } from './disco.js';
export { FLIGHT_SERVICE_WSDL } from './flight-service.js';
export { buildWsdl, GET_ACCESS_TOKEN_ACTION } from './wsdl.js';
