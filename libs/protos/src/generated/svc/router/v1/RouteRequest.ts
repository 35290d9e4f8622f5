// Original file: protos/svc/router/v1/router_service.proto

import type { ModelAccess as _svc_router_v1_ModelAccess, ModelAccess__Output as _svc_router_v1_ModelAccess__Output } from '../../../svc/router/v1/ModelAccess';
import type { Needs as _svc_router_v1_Needs, Needs__Output as _svc_router_v1_Needs__Output } from '../../../svc/router/v1/Needs';
import type { RouteMessage as _svc_router_v1_RouteMessage, RouteMessage__Output as _svc_router_v1_RouteMessage__Output } from '../../../svc/router/v1/RouteMessage';

export interface RouteRequest {
  'organization_id'?: (string);
  'key_id'?: (string);
  /**
   * Requested model: a catalog id or a virtual id; empty means auto.
   */
  'model'?: (string);
  'access'?: (_svc_router_v1_ModelAccess | null);
  /**
   * svc.vendors: only these vendors are candidates (empty = all).
   */
  'vendors'?: (string)[];
  'needs'?: (_svc_router_v1_Needs | null);
  /**
   * svc.fallback after header and key defaults: same_vendor, cross_vendor, none.
   */
  'fallback'?: (string);
  'session_id'?: (string);
  /**
   * System and developer messages joined with a blank line.
   */
  'system_prompt'?: (string);
  'messages'?: (_svc_router_v1_RouteMessage)[];
  /**
   * The organization is served under the Free limits: pick among free models.
   */
  'free_plan'?: (boolean);
  /**
   * reasoning_effort as sent (empty when none).
   */
  'reasoning_effort'?: (string);
  /**
   * Escalation (auto only): the model that asked for a stronger one, or whose answer failed the
   * service's check. The turn is routed one floor step up from the session's decision (or, under
   * the earlier rule, to the next model up the curve), with trigger `escalation`, and the session
   * keeps the stronger model for its later turns.
   */
  'escalated_from'?: (string);
  /**
   * The price tier auto compares candidates at (spec: Deadline and flex rules 1): `flex` from a
   * 15-minute svc.deadline (each model at its flex price, standard where it has none); empty or
   * `standard` otherwise.
   */
  'price_tier'?: (string);
  /**
   * Route as if the job's stakes were normal (the analyzer's normal_stakes row: what the line
   * would pick had high stakes not moved it). Nothing is written to a session.
   */
  'assume_normal_stakes'?: (boolean);
}

export interface RouteRequest__Output {
  'organization_id': (string);
  'key_id': (string);
  /**
   * Requested model: a catalog id or a virtual id; empty means auto.
   */
  'model': (string);
  'access': (_svc_router_v1_ModelAccess__Output | null);
  /**
   * svc.vendors: only these vendors are candidates (empty = all).
   */
  'vendors': (string)[];
  'needs': (_svc_router_v1_Needs__Output | null);
  /**
   * svc.fallback after header and key defaults: same_vendor, cross_vendor, none.
   */
  'fallback': (string);
  'session_id': (string);
  /**
   * System and developer messages joined with a blank line.
   */
  'system_prompt': (string);
  'messages': (_svc_router_v1_RouteMessage__Output)[];
  /**
   * The organization is served under the Free limits: pick among free models.
   */
  'free_plan': (boolean);
  /**
   * reasoning_effort as sent (empty when none).
   */
  'reasoning_effort': (string);
  /**
   * Escalation (auto only): the model that asked for a stronger one, or whose answer failed the
   * service's check. The turn is routed one floor step up from the session's decision (or, under
   * the earlier rule, to the next model up the curve), with trigger `escalation`, and the session
   * keeps the stronger model for its later turns.
   */
  'escalated_from': (string);
  /**
   * The price tier auto compares candidates at (spec: Deadline and flex rules 1): `flex` from a
   * 15-minute svc.deadline (each model at its flex price, standard where it has none); empty or
   * `standard` otherwise.
   */
  'price_tier': (string);
  /**
   * Route as if the job's stakes were normal (the analyzer's normal_stakes row: what the line
   * would pick had high stakes not moved it). Nothing is written to a session.
   */
  'assume_normal_stakes': (boolean);
}
