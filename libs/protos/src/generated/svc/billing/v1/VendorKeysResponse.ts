// Original file: protos/svc/billing/v1/billing_service.proto


export interface VendorKeysResponse {
  /**
   * vendor id -> the organization's own key for it
   */
  'keys'?: ({[key: string]: string});
}

export interface VendorKeysResponse__Output {
  /**
   * vendor id -> the organization's own key for it
   */
  'keys': ({[key: string]: string});
}
