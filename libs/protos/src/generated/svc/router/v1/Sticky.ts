// Original file: protos/svc/router/v1/router_service.proto


export interface Sticky {
  'model'?: (string);
  'cold_pick'?: (string);
}

export interface Sticky__Output {
  'model': (string);
  'cold_pick': (string);
}
