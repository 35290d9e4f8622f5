// Original file: protos/svc/router/v1/router_service.proto


/**
 * One message as routing reads it: role and plain text (images and tool payloads reduced).
 */
export interface RouteMessage {
  'role'?: (string);
  'text'?: (string);
}

/**
 * One message as routing reads it: role and plain text (images and tool payloads reduced).
 */
export interface RouteMessage__Output {
  'role': (string);
  'text': (string);
}
