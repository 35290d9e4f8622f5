// Original file: protos/svc/router/v1/router_service.proto


/**
 * Model access at each level (spec: Authentication 6). Empty lists mean "no restriction".
 */
export interface ModelAccess {
  'account_disabled'?: (string)[];
  'organization_disabled'?: (string)[];
  'project_disabled'?: (string)[];
  /**
   * The key's allow list; empty = every model.
   */
  'key_allowed'?: (string)[];
}

/**
 * Model access at each level (spec: Authentication 6). Empty lists mean "no restriction".
 */
export interface ModelAccess__Output {
  'account_disabled': (string)[];
  'organization_disabled': (string)[];
  'project_disabled': (string)[];
  /**
   * The key's allow list; empty = every model.
   */
  'key_allowed': (string)[];
}
