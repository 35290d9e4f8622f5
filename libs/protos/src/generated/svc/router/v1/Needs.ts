// Original file: protos/svc/router/v1/router_service.proto


/**
 * What the request needs from a model (eligibility).
 */
export interface Needs {
  'tools'?: (boolean);
  'vision'?: (boolean);
  'json_schema'?: (boolean);
  /**
   * Estimated input tokens: a model's context window must fit them.
   */
  'input_tokens'?: (number);
}

/**
 * What the request needs from a model (eligibility).
 */
export interface Needs__Output {
  'tools': (boolean);
  'vision': (boolean);
  'json_schema': (boolean);
  /**
   * Estimated input tokens: a model's context window must fit them.
   */
  'input_tokens': (number);
}
