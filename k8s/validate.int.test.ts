/**
 * Renders every kustomization under k8s/overlays with `kubectl kustomize` and checks the result:
 * each object against the Kubernetes API schemas (kubernetes-models), then the rules the fleet
 * relies on: probes, resources and a locked-down security context on every container, Services
 * and autoscalers / disruption budgets that point at real Deployments, migrations awaited by
 * every pod that uses Postgres, and no secret values in production.
 *
 * Needs kubectl on PATH (or KUBECTL=/path/to/kubectl); nothing talks to a cluster.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { CronJob } from 'kubernetes-models/batch/v1/CronJob';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: Json;
}

type ModelClass = new (data: Json) => { validate(): void };

/** Every kind the manifests may contain; anything else fails the test. */
const MODELS: Record<string, ModelClass> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'apps/v1/Deployment': Deployment,
  'batch/v1/CronJob': CronJob,
  'batch/v1/Job': Job,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
};

const K8S_DIR = __dirname;
const KUBECTL = process.env.KUBECTL || 'kubectl';

const CORE_SERVICES = ['edge', 'router', 'billing', 'conversations', 'batch', 'workers'];
const GRPC_PORTS: Record<string, number> = { router: 50051, billing: 50052, conversations: 50053, batch: 50054 };
const HTTP_PROBED = ['edge', 'workers', 'vendor-sim'];
const POSTGRES_USERS = ['billing', 'conversations', 'batch', 'workers'];
const AUTOSCALED = ['edge', 'router', 'billing', 'conversations', 'workers'];
const SECRET_KEYS = ['DATABASE_URL', 'REDIS_URL', 'AMQP_URL', 'BYOK_ENCRYPTION_KEY', 'FILES_ENCRYPTION_KEY', ...Array.from({ length: 8 }, (_, i) => `VENDOR_${i + 1}_API_KEY`)];
const CLUSTER_SCOPED = new Set(['Namespace']);

interface Target {
  dir: string;
  namespace: string;
  env: 'dev' | 'prod';
  migrateOnly: boolean;
}

const TARGETS: Target[] = [
  { dir: 'overlays/dev', namespace: 'svc-dev', env: 'dev', migrateOnly: false },
  { dir: 'overlays/prod', namespace: 'svc', env: 'prod', migrateOnly: false },
  { dir: 'overlays/dev/migrate', namespace: 'svc-dev', env: 'dev', migrateOnly: true },
  { dir: 'overlays/prod/migrate', namespace: 'svc', env: 'prod', migrateOnly: true },
];

const rendered = new Map<string, K8sObject[]>();

function render(dir: string): K8sObject[] {
  const cached = rendered.get(dir);
  if (cached) return cached;
  let text: string;
  try {
    text = execFileSync(KUBECTL, ['kustomize', join(K8S_DIR, dir)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') throw new Error(`kubectl not found (looked for "${KUBECTL}"); install it or set KUBECTL`);
    throw new Error(`kubectl kustomize ${dir} failed: ${e.stderr || e.message}`);
  }
  const objects: K8sObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new Error(`${dir}: unparsable YAML: ${doc.errors.map((x) => x.message).join('; ')}`);
    const value = doc.toJS();
    if (value !== null && value !== undefined) objects.push(value as K8sObject);
  }
  rendered.set(dir, objects);
  return objects;
}

/**
 * The object as the API server decodes it. kustomize folds long base64 values of Secret data
 * over several lines; the server's base64 decoding skips those line breaks, the schema's "byte"
 * format does not, so they are removed before validation.
 */
function apiServerView(o: K8sObject): K8sObject {
  if (o.kind !== 'Secret' && o.kind !== 'ConfigMap') return o;
  const field = o.kind === 'Secret' ? 'data' : 'binaryData';
  if (!o[field]) return o;
  const unfolded = Object.fromEntries(Object.entries<string>(o[field]).map(([k, v]) => [k, String(v).replace(/\s+/g, '')]));
  return { ...o, [field]: unfolded };
}

const id = (o: K8sObject) => `${o.kind}/${o.metadata?.name}`;
const ofKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);
const byName = (objects: K8sObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);

function matches(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([k, v]) => labels?.[k] === v);
}

/** The pod templates of the workloads in a render, with where they come from. */
function podTemplates(objects: K8sObject[]): { owner: string; template: Json }[] {
  const out: { owner: string; template: Json }[] = [];
  for (const o of objects) {
    if (o.kind === 'Deployment' || o.kind === 'Job') out.push({ owner: id(o), template: o.spec?.template });
    if (o.kind === 'CronJob') out.push({ owner: id(o), template: o.spec?.jobTemplate?.spec?.template });
  }
  return out;
}

function allContainers(podSpec: Json): { kind: string; c: Json }[] {
  return [
    ...(podSpec?.initContainers ?? []).map((c: Json) => ({ kind: 'initContainer', c })),
    ...(podSpec?.containers ?? []).map((c: Json) => ({ kind: 'container', c })),
  ];
}

function imageOf(objects: K8sObject[], repoSuffix: string): string[] {
  const images = new Set<string>();
  for (const { template } of podTemplates(objects)) {
    for (const { c } of allContainers(template.spec)) if (String(c.image).split(':')[0].endsWith(repoSuffix)) images.add(c.image);
  }
  return [...images];
}

describe.each(TARGETS)('kubectl kustomize k8s/$dir', (target) => {
  let objects: K8sObject[];
  beforeAll(() => {
    objects = render(target.dir);
  });

  it('renders objects of known kinds that satisfy the Kubernetes schemas', () => {
    expect(objects.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const o of objects) {
      const Model = MODELS[`${o.apiVersion}/${o.kind}`];
      if (!Model) {
        problems.push(`${id(o)}: unknown apiVersion/kind ${o.apiVersion}/${o.kind}`);
        continue;
      }
      try {
        new Model(apiServerView(o)).validate();
      } catch (error) {
        problems.push(`${id(o)}: ${(error as Error).message}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('labels every object and puts it in the overlay namespace, with unique names', () => {
    const problems: string[] = [];
    const seen = new Set<string>();
    for (const o of objects) {
      if (!o.metadata?.name) problems.push(`${o.kind}: no name`);
      if (seen.has(id(o))) problems.push(`${id(o)}: duplicate`);
      seen.add(id(o));
      if (!o.metadata.labels?.['app.kubernetes.io/name']) problems.push(`${id(o)}: no app.kubernetes.io/name label`);
      if (o.metadata.labels?.['app.kubernetes.io/part-of'] !== 'svc') problems.push(`${id(o)}: app.kubernetes.io/part-of is not svc`);
      if (CLUSTER_SCOPED.has(o.kind)) {
        if (o.kind === 'Namespace' && o.metadata.name !== target.namespace) problems.push(`${id(o)}: expected namespace ${target.namespace}`);
      } else if (o.metadata.namespace !== target.namespace) {
        problems.push(`${id(o)}: namespace ${o.metadata.namespace}, expected ${target.namespace}`);
      }
    }
    for (const { owner, template } of podTemplates(objects)) {
      const labels = template?.metadata?.labels ?? {};
      if (!labels['app.kubernetes.io/name'] || labels['app.kubernetes.io/part-of'] !== 'svc') problems.push(`${owner}: pod template lacks name/part-of labels`);
    }
    expect(problems).toEqual([]);
  });

  it('locks down every pod and container (non-root, read-only root, no privilege escalation, no capabilities, resources)', () => {
    const problems: string[] = [];
    for (const { owner, template } of podTemplates(objects)) {
      const spec = template?.spec;
      if (!spec) {
        problems.push(`${owner}: no pod template`);
        continue;
      }
      const pod = spec.securityContext ?? {};
      if (pod.runAsNonRoot !== true) problems.push(`${owner}: pod runAsNonRoot is not true`);
      if (pod.runAsUser !== 10001) problems.push(`${owner}: pod runAsUser is not 10001`);
      if (pod.seccompProfile?.type !== 'RuntimeDefault') problems.push(`${owner}: pod seccompProfile is not RuntimeDefault`);
      if (spec.automountServiceAccountToken !== false) problems.push(`${owner}: automountServiceAccountToken is not false`);
      const sa = spec.serviceAccountName;
      const account = sa ? byName(objects, 'ServiceAccount', sa) : undefined;
      if (!account) problems.push(`${owner}: ServiceAccount ${sa} is not in the render`);
      else if (account.automountServiceAccountToken !== false) problems.push(`ServiceAccount/${sa}: automountServiceAccountToken is not false`);

      const volumes: Json[] = spec.volumes ?? [];
      const tmp = volumes.find((v) => v.emptyDir !== undefined && (spec.containers ?? []).every((c: Json) => (c.volumeMounts ?? []).some((m: Json) => m.name === v.name && m.mountPath === '/tmp')));
      if (!tmp) problems.push(`${owner}: no emptyDir mounted at /tmp in every container`);

      for (const { kind, c } of allContainers(spec)) {
        const where = `${owner} ${kind} ${c.name}`;
        const sc = c.securityContext ?? {};
        if ((sc.runAsNonRoot ?? pod.runAsNonRoot) !== true) problems.push(`${where}: runAsNonRoot is not true`);
        if ((sc.runAsUser ?? pod.runAsUser) !== 10001) problems.push(`${where}: runAsUser is not 10001`);
        if (sc.readOnlyRootFilesystem !== true) problems.push(`${where}: readOnlyRootFilesystem is not true`);
        if (sc.allowPrivilegeEscalation !== false) problems.push(`${where}: allowPrivilegeEscalation is not false`);
        if (!(sc.capabilities?.drop ?? []).includes('ALL')) problems.push(`${where}: capabilities.drop lacks ALL`);
        if (sc.privileged) problems.push(`${where}: privileged`);
        if ((sc.capabilities?.add ?? []).length > 0) problems.push(`${where}: adds capabilities`);
        for (const part of ['requests', 'limits'] as const) {
          for (const resource of ['cpu', 'memory']) {
            if (c.resources?.[part]?.[resource] === undefined) problems.push(`${where}: no ${resource} ${part}`);
          }
        }
        if (!c.image) problems.push(`${where}: no image`);
        // Configuration comes from svc-config and svc-secrets, by name only.
        for (const from of c.envFrom ?? []) {
          if (from.configMapRef && from.configMapRef.name !== 'svc-config') problems.push(`${where}: envFrom ConfigMap ${from.configMapRef.name}`);
          if (from.secretRef && from.secretRef.name !== 'svc-secrets') problems.push(`${where}: envFrom Secret ${from.secretRef.name}`);
        }
        for (const e of c.env ?? []) {
          if (e.valueFrom?.secretKeyRef && e.valueFrom.secretKeyRef.name !== 'svc-secrets') problems.push(`${where}: env ${e.name} from Secret ${e.valueFrom.secretKeyRef.name}`);
          if (e.valueFrom?.configMapKeyRef && e.valueFrom.configMapKeyRef.name !== 'svc-config') problems.push(`${where}: env ${e.name} from ConfigMap ${e.valueFrom.configMapKeyRef.name}`);
          if (SECRET_KEYS.includes(e.name) && e.value !== undefined) problems.push(`${where}: ${e.name} given as a literal value`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('keeps credentials out of ConfigMaps', () => {
    const leaked = ofKind(objects, 'ConfigMap').flatMap((cm) => Object.keys(cm.data ?? {}).filter((k) => SECRET_KEYS.includes(k)).map((k) => `${id(cm)}: ${k}`));
    expect(leaked).toEqual([]);
  });

  it(target.env === 'prod' ? 'carries no Secret values (production secrets come from outside)' : 'carries only fake development secret values', () => {
    const problems: string[] = [];
    for (const secret of ofKind(objects, 'Secret')) {
      const values: [string, string][] = [
        ...Object.entries<string>(secret.data ?? {}).map(([k, v]): [string, string] => [k, Buffer.from(v, 'base64').toString('utf8')]),
        ...Object.entries<string>(secret.stringData ?? {}),
      ];
      if (target.env === 'prod') {
        if (values.length > 0) problems.push(`${id(secret)}: carries ${values.map(([k]) => k).join(', ')}`);
        continue;
      }
      for (const [key, value] of values) {
        // BYOK_ENCRYPTION_KEY is base64 itself: look at what it encodes.
        const plain = key === 'BYOK_ENCRYPTION_KEY' || key === 'FILES_ENCRYPTION_KEY' ? Buffer.from(value, 'base64').toString('utf8') : value;
        if (!plain.includes('dev-only-change-me')) problems.push(`${id(secret)}: ${key} is not an obviously fake value`);
        if ((key === 'BYOK_ENCRYPTION_KEY' || key === 'FILES_ENCRYPTION_KEY') && Buffer.from(value, 'base64').length !== 32) problems.push(`${id(secret)}: ${key} is not 32 bytes`);
      }
    }
    expect(problems).toEqual([]);
  });

  if (target.migrateOnly) {
    it('is the migration Job alone, waiting for Postgres, with hook annotations', () => {
      const workloads = objects.filter((o) => ['Deployment', 'CronJob', 'Job'].includes(o.kind));
      expect(workloads.map(id)).toEqual(['Job/svc-migrate']);
      const job = workloads[0];
      const spec = job.spec.template.spec;
      expect(spec.restartPolicy).toBe('Never');
      expect(spec.initContainers?.map((c: Json) => c.name)).toEqual(['wait-for-postgres']);
      expect(spec.containers[0].command).toEqual(['node', 'libs/db/dist/migrate-cli.js']);
      const images = new Set(allContainers(spec).map(({ c }) => c.image));
      expect(images.size).toBe(1);
      expect([...images][0]).toMatch(/migrate:[^:]+$/);
      expect(job.metadata.annotations).toEqual(expect.objectContaining({ 'argocd.argoproj.io/hook': 'PreSync', 'helm.sh/hook': 'pre-install,pre-upgrade' }));
    });

    it('runs the same migration image as the overlay it precedes', () => {
      const overlay = render(target.dir.replace(/\/migrate$/, ''));
      expect(imageOf(objects, 'migrate')).toEqual(imageOf(overlay, 'migrate'));
    });
    return;
  }

  it('deploys every service (vendor-sim in dev only)', () => {
    const names = ofKind(objects, 'Deployment').map((d) => d.metadata.name);
    for (const service of CORE_SERVICES) expect(names).toContain(service);
    if (target.env === 'dev') expect(names).toContain('vendor-sim');
    else expect(names).not.toContain('vendor-sim');
    expect(ofKind(objects, 'Job')).toEqual([]);
  });

  it('gives every Deployment container readiness and liveness probes on a declared port', () => {
    const problems: string[] = [];
    for (const d of ofKind(objects, 'Deployment')) {
      const name = d.metadata.name;
      for (const c of d.spec.template.spec.containers) {
        const where = `${id(d)} container ${c.name}`;
        const ports: Json[] = c.ports ?? [];
        for (const probeName of ['readinessProbe', 'livenessProbe', 'startupProbe']) {
          const probe = c[probeName];
          if (!probe) {
            if (probeName !== 'startupProbe') problems.push(`${where}: no ${probeName}`);
            continue;
          }
          const port = probe.grpc?.port ?? probe.httpGet?.port ?? probe.tcpSocket?.port;
          if (port === undefined && !probe.exec) problems.push(`${where}: ${probeName} has no handler`);
          if (port !== undefined && !ports.some((p) => p.name === port || p.containerPort === port)) problems.push(`${where}: ${probeName} port ${port} is not a container port`);
          if (c.name === name && GRPC_PORTS[name] !== undefined && probe.grpc?.port !== GRPC_PORTS[name]) problems.push(`${where}: ${probeName} is not a grpc probe on ${GRPC_PORTS[name]}`);
          if (c.name === name && HTTP_PROBED.includes(name) && !probe.httpGet) problems.push(`${where}: ${probeName} is not an httpGet probe`);
        }
        if (c.name === name && HTTP_PROBED.includes(name) && name !== 'vendor-sim') {
          if (c.readinessProbe?.httpGet?.path !== '/readyz') problems.push(`${where}: readiness is not GET /readyz`);
          if (c.livenessProbe?.httpGet?.path !== '/healthz') problems.push(`${where}: liveness is not GET /healthz`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('exposes Prometheus metrics on 9464 from every service pod', () => {
    const problems: string[] = [];
    for (const d of ofKind(objects, 'Deployment').filter((x) => [...CORE_SERVICES, 'vendor-sim'].includes(x.metadata.name))) {
      const a = d.spec.template.metadata.annotations ?? {};
      if (a['prometheus.io/scrape'] !== 'true' || a['prometheus.io/port'] !== '9464' || a['prometheus.io/path'] !== '/metrics') problems.push(`${id(d)}: scrape annotations`);
      const main = d.spec.template.spec.containers.find((c: Json) => c.name === d.metadata.name);
      if (!main?.ports?.some((p: Json) => p.containerPort === 9464)) problems.push(`${id(d)}: no container port 9464`);
    }
    expect(problems).toEqual([]);
  });

  it('holds every pod that uses Postgres until its migrations are applied', () => {
    const problems: string[] = [];
    const migrateImages = new Set<string>();
    const waiting = [
      ...ofKind(objects, 'Deployment').filter((d) => POSTGRES_USERS.includes(d.metadata.name)).map((d) => ({ owner: id(d), spec: d.spec.template.spec })),
      ...ofKind(objects, 'CronJob').map((c) => ({ owner: id(c), spec: c.spec.jobTemplate.spec.template.spec })),
    ];
    expect(waiting.length).toBe(POSTGRES_USERS.length + 2);
    for (const { owner, spec } of waiting) {
      const wait = (spec.initContainers ?? []).find((c: Json) => c.name === 'wait-for-migrations');
      if (!wait) {
        problems.push(`${owner}: no wait-for-migrations init container`);
        continue;
      }
      if (JSON.stringify(wait.command) !== JSON.stringify(['svc-wait-migrations'])) problems.push(`${owner}: wait-for-migrations does not run svc-wait-migrations`);
      if (!/migrate(:|$)/.test(wait.image)) problems.push(`${owner}: wait-for-migrations image ${wait.image} is not the migration image`);
      if (!(wait.env ?? []).some((e: Json) => e.name === 'DATABASE_URL' && e.valueFrom?.secretKeyRef?.name === 'svc-secrets')) problems.push(`${owner}: wait-for-migrations lacks DATABASE_URL from svc-secrets`);
      migrateImages.add(wait.image);
    }
    expect(problems).toEqual([]);
    expect(migrateImages.size).toBe(1);
  });

  it('selects the pods of a Deployment from every Service, on declared ports', () => {
    const problems: string[] = [];
    const deployments = ofKind(objects, 'Deployment');
    for (const s of ofKind(objects, 'Service')) {
      const target = deployments.find((d) => matches(s.spec.selector, d.spec.template.metadata.labels));
      if (!target) {
        problems.push(`${id(s)}: selector ${JSON.stringify(s.spec.selector)} matches no Deployment's pods`);
        continue;
      }
      const ports: Json[] = target.spec.template.spec.containers.flatMap((c: Json) => c.ports ?? []);
      for (const p of s.spec.ports ?? []) {
        const tp = p.targetPort ?? p.port;
        if (!ports.some((cp) => cp.name === tp || cp.containerPort === tp)) problems.push(`${id(s)}: targetPort ${tp} is not a port of ${id(target)}`);
      }
    }
    for (const d of deployments) {
      if (!matches(d.spec.selector.matchLabels, d.spec.template.metadata.labels)) problems.push(`${id(d)}: selector does not match its own pod labels`);
    }
    expect(problems).toEqual([]);
  });

  it('points every HorizontalPodAutoscaler and PodDisruptionBudget at an existing Deployment', () => {
    const problems: string[] = [];
    const deployments = ofKind(objects, 'Deployment');
    for (const h of ofKind(objects, 'HorizontalPodAutoscaler')) {
      const ref = h.spec.scaleTargetRef;
      if (ref.kind !== 'Deployment' || ref.apiVersion !== 'apps/v1' || !byName(objects, 'Deployment', ref.name)) problems.push(`${id(h)}: scaleTargetRef ${JSON.stringify(ref)} is not an existing Deployment`);
      const cpu = (h.spec.metrics ?? []).find((m: Json) => m.type === 'Resource' && m.resource?.name === 'cpu');
      if (cpu?.resource?.target?.averageUtilization !== 70) problems.push(`${id(h)}: CPU target is not 70%`);
      if (!(h.spec.minReplicas >= 1 && h.spec.minReplicas <= h.spec.maxReplicas)) problems.push(`${id(h)}: minReplicas ${h.spec.minReplicas} / maxReplicas ${h.spec.maxReplicas}`);
    }
    for (const p of ofKind(objects, 'PodDisruptionBudget')) {
      if (!deployments.some((d) => matches(p.spec.selector?.matchLabels, d.spec.template.metadata.labels))) problems.push(`${id(p)}: selector matches no Deployment's pods`);
      if (p.spec.minAvailable === undefined && p.spec.maxUnavailable === undefined) problems.push(`${id(p)}: neither minAvailable nor maxUnavailable`);
    }
    const scaled = ofKind(objects, 'HorizontalPodAutoscaler').map((h) => h.spec.scaleTargetRef.name);
    const budgeted = ofKind(objects, 'PodDisruptionBudget').flatMap((p) => deployments.filter((d) => matches(p.spec.selector?.matchLabels, d.spec.template.metadata.labels)).map((d) => d.metadata.name));
    for (const name of AUTOSCALED) {
      if (!scaled.includes(name)) problems.push(`${name}: no HorizontalPodAutoscaler`);
      if (!budgeted.includes(name)) problems.push(`${name}: no PodDisruptionBudget`);
    }
    expect(problems).toEqual([]);
  });

  it('runs the nightly baseline recompute and the hourly retention sweep, never overlapping', () => {
    const baseline = byName(objects, 'CronJob', 'billing-baseline-recompute');
    const retention = byName(objects, 'CronJob', 'workers-retention-sweep');
    expect(baseline?.spec.schedule).toBe('15 3 * * *');
    expect(baseline?.spec.timeZone).toBe('Etc/UTC');
    expect(baseline?.spec.jobTemplate.spec.template.spec.containers[0].command).toEqual(['node', 'services/billing/dist/jobs/baseline-cli.js']);
    expect(retention?.spec.schedule).toMatch(/^\d{1,2} \* \* \* \*$/);
    expect(baseline?.spec.jobTemplate.spec.template.spec.containers[0].image).toBe(byName(objects, 'Deployment', 'billing')?.spec.template.spec.containers.find((c: Json) => c.name === 'billing')?.image);
    // conversations owns the stored conversations: the sweep runs its image.
    expect(retention?.spec.jobTemplate.spec.template.spec.containers[0].command).toEqual(['node', 'services/conversations/dist/jobs/retention-cli.js']);
    expect(retention?.spec.jobTemplate.spec.template.spec.containers[0].image).toBe(byName(objects, 'Deployment', 'conversations')?.spec.template.spec.containers.find((c: Json) => c.name === 'conversations')?.image);
    expect(retention?.spec.jobTemplate.spec.template.spec.containers[0].image).toMatch(/conversations(:[^:/]+)?$/);
    expect(retention?.spec.jobTemplate.spec.template.spec.serviceAccountName).toBe('conversations');
    for (const c of ofKind(objects, 'CronJob')) expect([id(c), c.spec.concurrencyPolicy]).toEqual([id(c), 'Forbid']);
  });

  it('spreads replicas across nodes', () => {
    const problems: string[] = [];
    for (const d of ofKind(objects, 'Deployment')) {
      const spec = d.spec.template.spec;
      const spread = (spec.topologySpreadConstraints ?? []).some((t: Json) => t.topologyKey === 'kubernetes.io/hostname');
      const anti = (spec.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).some((t: Json) => t.podAffinityTerm?.topologyKey === 'kubernetes.io/hostname');
      if (d.metadata.name !== 'vendor-sim' && !spread && !anti) problems.push(`${id(d)}: no spread over nodes`);
      for (const t of spec.topologySpreadConstraints ?? []) {
        if (t.whenUnsatisfiable !== 'ScheduleAnyway') problems.push(`${id(d)}: a hard topology constraint (${t.topologyKey}) would need several nodes`);
      }
      if (spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution) problems.push(`${id(d)}: required anti-affinity would need several nodes`);
    }
    expect(problems).toEqual([]);
  });

  if (target.env === 'dev') {
    it('runs one replica of everything, with vendor-sim wired in', () => {
      for (const d of ofKind(objects, 'Deployment')) expect([id(d), d.spec.replicas]).toEqual([id(d), 1]);
      for (const h of ofKind(objects, 'HorizontalPodAutoscaler')) expect([id(h), h.spec.minReplicas]).toEqual([id(h), 1]);
      expect(byName(objects, 'ConfigMap', 'svc-config')?.data.VENDOR_SIM_URL).toBe('http://vendor-sim:8090');
      expect(byName(objects, 'ConfigMap', 'svc-config')?.data.FORWARD_SIM_HEADERS).toBe('true');
      expect(byName(objects, 'Secret', 'svc-secrets')).toBeDefined();
      // The simulator listens on the loopback unless told otherwise: the probes and the pods reach the pod IP.
      const simulator = byName(objects, 'Deployment', 'vendor-sim')!.spec.template.spec.containers.find((c: Json) => c.name === 'vendor-sim');
      expect(simulator.env).toEqual(expect.arrayContaining([{ name: 'VENDOR_SIM_HOST', value: '0.0.0.0' }]));
    });
  } else {
    it('runs at least two replicas of every Deployment', () => {
      const problems: string[] = [];
      for (const d of ofKind(objects, 'Deployment')) {
        const hpa = ofKind(objects, 'HorizontalPodAutoscaler').find((h) => h.spec.scaleTargetRef.name === d.metadata.name);
        const min = hpa ? Math.max(hpa.spec.minReplicas, d.spec.replicas ?? 0) : (d.spec.replicas ?? 1);
        if (min < 2) problems.push(`${id(d)}: at least ${min} replica(s)`);
      }
      expect(problems).toEqual([]);
    });

    it('never forwards clients\' x-sim-* headers', () => {
      expect(byName(objects, 'ConfigMap', 'svc-config')?.data.FORWARD_SIM_HEADERS).toBe('false');
    });

    it('pins every image to a release tag', () => {
      const images = podTemplates(objects).flatMap(({ template }) => allContainers(template.spec).map(({ c }) => c.image as string));
      const floating = images.filter((image) => !/:[\w][\w.-]*$/.test(image.split('/').pop() ?? '') || image.endsWith(':latest'));
      expect(floating).toEqual([]);
    });

    it('denies all traffic by default and allows DNS, the callers and the dependencies', () => {
      const policies = ofKind(objects, 'NetworkPolicy');
      const deny = policies.find((p) => Object.keys(p.spec.podSelector ?? {}).length === 0 && !p.spec.ingress && !p.spec.egress);
      expect(deny?.spec.policyTypes).toEqual(expect.arrayContaining(['Ingress', 'Egress']));
      const egressPorts = (name: string) =>
        policies
          .filter((p) => Object.keys(p.spec.podSelector ?? {}).length === 0 || matches(p.spec.podSelector.matchLabels, { 'app.kubernetes.io/name': name, 'app.kubernetes.io/part-of': 'svc' }) || (p.spec.podSelector.matchExpressions ?? []).some((m: Json) => m.operator === 'In' && m.values.includes(name)))
          .flatMap((p) => (p.spec.egress ?? []).flatMap((rule: Json) => (rule.ports ?? []).map((port: Json) => port.port)));
      expect(egressPorts('edge')).toEqual(expect.arrayContaining([53, 443, 5432, 6379, 5672, 50051, 50052, 50053, 50054]));
      expect(egressPorts('billing')).toEqual(expect.arrayContaining([53, 5432, 6379, 5672]));
      expect(egressPorts('workers')).toEqual(expect.arrayContaining([53, 443, 5432, 50051, 50052, 50053, 50054]));
      expect(egressPorts('svc-migrate')).toEqual(expect.arrayContaining([53, 5432]));
      const ingressFrom = (name: string) => policies.find((p) => p.spec.podSelector?.matchLabels?.['app.kubernetes.io/name'] === name && p.spec.ingress);
      expect(ingressFrom('edge')?.spec.ingress[0].from).toBeUndefined();
      for (const name of ['router', 'billing', 'conversations', 'batch']) expect(ingressFrom(name)?.spec.ingress[0].from[0].podSelector.matchExpressions[0].values).toEqual(['edge', 'workers']);
      const metrics = policies.find((p) => (p.spec.ingress ?? []).some((r: Json) => (r.ports ?? []).some((port: Json) => port.port === 9464)));
      expect(metrics?.spec.ingress[0].from[0].namespaceSelector.matchLabels['kubernetes.io/metadata.name']).toBe('monitoring');
    });

    it('sends telemetry to the OpenTelemetry Collector', () => {
      expect(byName(objects, 'ConfigMap', 'svc-config')?.data.OTEL_EXPORTER_OTLP_ENDPOINT).toBe('http://otel-collector:4318');
      expect(byName(objects, 'Deployment', 'otel-collector')).toBeDefined();
      expect(byName(objects, 'Service', 'otel-collector')?.spec.ports.map((p: Json) => p.port)).toEqual([4317, 4318]);
    });
  }
});

describe('k8s/base/config/secret.example.yaml', () => {
  it('is an example only: listed by no kustomization and free of values', () => {
    const text = readFileSync(join(K8S_DIR, 'base/config/secret.example.yaml'), 'utf8');
    const doc = parseAllDocuments(text)[0].toJS() as K8sObject;
    for (const [key, value] of Object.entries<string>(doc.stringData)) expect([key, value]).toEqual([key, expect.stringMatching(/^<.*>$/)]);
    expect(Object.keys(doc.stringData).sort()).toEqual([...SECRET_KEYS].sort());
    const base = readFileSync(join(K8S_DIR, 'base/kustomization.yaml'), 'utf8');
    expect(base).not.toMatch(/^\s*-\s*config\/secret\.example\.yaml/m);
  });
});
