/**
 * Routing in domain terms. The router's gRPC server and the callers' clients map the wire
 * messages (svc.router.v1) to and from these shapes; field names follow the wire so the mapping is
 * a copy. Everything here is plain data.
 */

/** Model access at each level (spec: Authentication 6). Empty lists mean "no restriction". */
export interface ModelAccessLists {
  account_disabled?: string[];
  organization_disabled?: string[];
  project_disabled?: string[];
  /** The key's allow list; empty = every model. */
  key_allowed?: string[];
}

/** What the request needs from a model (eligibility). */
export interface RouteNeeds {
  tools?: boolean;
  vision?: boolean;
  json_schema?: boolean;
  /** Estimated input tokens: a model's context window must fit them. */
  input_tokens?: number;
}

/** One request as routing reads it. */
export interface RouteQuery {
  organization_id: string;
  key_id: string;
  /** A catalog id or a virtual id (auto, auto/cheap, auto/balanced, auto/best). */
  model: string;
  access?: ModelAccessLists | null;
  /** svc.vendors: only these vendors are candidates (empty = all). */
  vendors?: string[];
  needs?: RouteNeeds | null;
  /** svc.fallback after header and key defaults: same_vendor, cross_vendor, none. */
  fallback?: string;
  session_id?: string;
  /** System and developer messages joined with a blank line. */
  system_prompt?: string;
  /** Role and plain text of the last turns (images and tool payloads reduced to text). */
  messages?: Array<{ role: string; text: string }>;
  /** The organization is served under the Free limits: pick among free models. */
  free_plan?: boolean;
  /** reasoning_effort as sent (empty when none). */
  reasoning_effort?: string;
  /** Escalation: the model that asked for a stronger one (or whose answer failed the check); route one step up. */
  escalated_from?: string;
  /** Auto compares candidates at this tier's prices: `flex` from a 15-minute deadline (empty = standard). */
  price_tier?: string;
  /** Route as if the job's stakes were normal (the analyzer's normal_stakes row). */
  assume_normal_stakes?: boolean;
}

/** svc.routing as the spec names it; empty strings and zero values are omitted when rendered. */
export interface RoutingExplanation {
  line?: string;
  floor?: string;
  task?: string;
  task_type?: string;
  difficulty?: number;
  band?: string;
  stakes?: string;
  biased?: boolean;
  cell?: string;
  confidence?: number;
  reason?: string;
  trigger?: string;
  classifier?: string;
  effort?: string;
  effort_reason?: string;
  sticky?: { model?: string; cold_pick?: string } | null;
}

export interface RouteCandidate {
  model: string;
  vendor: string;
}

/** The routing decision: candidates in order (the pick first, at most 3 are tried). */
export interface RouteDecision {
  candidates: RouteCandidate[];
  routing?: RoutingExplanation | null;
  /** Reasoning level chosen with the model, empty for the model default. */
  effort?: string;
  /** The request named a virtual id (the auto call fee applies). */
  auto?: boolean;
  /** On the Free plan under auto: the model a paid account would have been given. */
  paid_would_use?: string;
  /** Under auto: the stronger models an escalation from the pick would use; empty when none exists. */
  escalation?: RouteCandidate[];
}
