// Original file: protos/svc/router/v1/router_service.proto

import type { Sticky as _svc_router_v1_Sticky, Sticky__Output as _svc_router_v1_Sticky__Output } from '../../../svc/router/v1/Sticky';

/**
 * svc.routing as the spec names it; empty strings and zero values are omitted when rendered.
 */
export interface Routing {
  'line'?: (string);
  'floor'?: (string);
  'task'?: (string);
  'task_type'?: (string);
  'difficulty'?: (number);
  'band'?: (string);
  'stakes'?: (string);
  'biased'?: (boolean);
  'cell'?: (string);
  'confidence'?: (number | string);
  'reason'?: (string);
  'trigger'?: (string);
  'classifier'?: (string);
  'effort'?: (string);
  'effort_reason'?: (string);
  'sticky'?: (_svc_router_v1_Sticky | null);
}

/**
 * svc.routing as the spec names it; empty strings and zero values are omitted when rendered.
 */
export interface Routing__Output {
  'line': (string);
  'floor': (string);
  'task': (string);
  'task_type': (string);
  'difficulty': (number);
  'band': (string);
  'stakes': (string);
  'biased': (boolean);
  'cell': (string);
  'confidence': (number);
  'reason': (string);
  'trigger': (string);
  'classifier': (string);
  'effort': (string);
  'effort_reason': (string);
  'sticky': (_svc_router_v1_Sticky__Output | null);
}
