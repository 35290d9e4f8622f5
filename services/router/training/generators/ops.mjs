// Templates for operations work (devops) and security audits.
import { clamp, dpick, COMPANIES, CITIES, AGENT_SYSTEMS, genericSystem } from './lib.mjs';
import { K8S_STATUS, SHELL_OUTPUTS } from './snippets.mjs';

const SERVICES = ['checkout-api', 'payments-worker', 'search', 'auth', 'notifications', 'inventory', 'ledger', 'api-gateway'];
const ALERTS = [
  (r) => `[FIRING] HighErrorRate ${r.pick(SERVICES)} 5xx=${r.int(5, 60)}% for 10m (threshold 2%)`,
  (r) => `[FIRING] DiskWillFillIn4Hours instance=db-${r.int(1, 9)} mountpoint=/var/lib/postgresql`,
  (r) => `[FIRING] KubePodCrashLooping namespace=prod pod=${r.pick(SERVICES)}-${r.hex(5)}`,
  (r) => `[FIRING] P99LatencyHigh ${r.pick(SERVICES)} p99=${r.int(2, 20)}.${r.int(0, 9)}s`,
  (r) => `[FIRING] CertificateExpiry ${r.pick(['api', 'www', 'admin'])}.example.com expires in ${r.int(1, 6)} days`,
  (r) => `[FIRING] ReplicationLag replica=pg-${r.int(1, 3)} lag=${r.int(30, 900)}s`,
];

export const devops = [
  { id: 'incident', gen(r) {
    const a = r.pick(ALERTS)(r);
    return { text: `${r.pick(["We're paged:", 'On-call here, just got this:', 'Incident in progress:', 'PagerDuty woke me up with'])}\n${a}\n${r.pick(['What should I check first?', 'Walk me through mitigation.', 'Roll back or scale up?', 'Help me triage.'])}`, system: genericSystem(r), difficulty: 3, stakes: 'high' };
  } },
  { id: 'k8s-status', gen(r) {
    return { text: `Our pods look like this after the deploy. ${r.pick(['What is going on?', 'How do we recover?', 'Is it the node or the app?'])}\n${r.pick(K8S_STATUS)}`, difficulty: 3, stakes: r.chance(0.6) ? 'high' : 'normal' };
  } },
  { id: 'rollback', gen(r) {
    return { text: `The ${r.pick(SERVICES)} release from ${r.int(10, 59)} minutes ago is causing ${r.pick(['elevated 500s', 'duplicate emails', 'slow checkouts', 'failed logins'])}. How do I roll back safely with ${r.pick(['Argo CD', 'Helm', 'kubectl', 'Spinnaker', 'our blue/green setup'])} and confirm recovery?`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'capacity', gen(r) {
    return { text: `We expect ${r.int(3, 20)}x traffic for ${r.pick(['Black Friday', 'a product launch', 'the World Cup final', 'tax day'])}. Current peak is ${r.int(2, 80)}k rps across ${r.int(4, 60)} nodes. Make a capacity and load-testing plan, including database and cache limits.`, difficulty: 4, stakes: 'high' };
  } },
  { id: 'ci-pipeline', gen(r) {
    return { text: `Our CI ${r.pick(['takes 45 minutes', 'fails randomly on the docker build step', 'runs out of disk on the self-hosted runners', 'is rebuilding all 30 services on every commit'])}. How do we fix this operationally (caching, runners, parallelism)?`, difficulty: 3 };
  } },
  { id: 'postmortem', gen(r) {
    return { text: `Help me write the blameless postmortem for yesterday's ${r.int(20, 240)}-minute outage of ${r.pick(SERVICES)}: timeline, root cause (${r.pick(['expired TLS certificate', 'bad config push', 'database failover that did not promote', 'DNS change', 'exhausted connection pool'])}), impact, and action items.`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'monitoring', gen(r) {
    return { text: `What SLOs and alerts should we set up for ${r.pick(['a public REST API', 'a Kafka-based event pipeline', 'a Postgres cluster', 'our mobile backend'])}? We use ${r.pick(['Prometheus + Grafana', 'Datadog', 'CloudWatch', 'New Relic'])}. Avoid alert fatigue.`, difficulty: 3 };
  } },
  { id: 'dr', gen(r) {
    return { text: `Design our disaster recovery runbook for losing the entire ${r.pick(['us-east-1', 'eu-west-1', 'primary'])} region: RPO ${r.pick(['5 minutes', '1 hour', 'zero'])}, RTO ${r.pick(['30 minutes', '4 hours'])}, stateful services included. How do we test it without hurting production?`, difficulty: 5, stakes: 'high' };
  } },
  { id: 'agent-ops', gen(r) {
    return { text: `${r.pick(['The alert is still firing.', 'Error rate is back down but not to baseline.', 'Pods are still restarting.', 'Latency spiked again.'])} ${r.pick(['Check the pods and the node, then decide whether to cordon the node.', 'Look at the recent deploys and roll back if one matches the start time.', 'Scale the deployment to 6 replicas and watch the error rate for 5 minutes.', 'Drain the unhealthy node and report what moved.'])}`, system: r.pick([AGENT_SYSTEMS[2], 'You are an SRE agent with kubectl and cloud CLI access.']), turn: 'agent', tool_result: r.pick(K8S_STATUS), turns: r.int(3, 15), difficulty: 3, stakes: 'high' };
  } },
  { id: 'disk', gen(r) {
    return { text: `Production server disk is almost full and the app started failing writes. What's the safest way to free space right now and stop it from happening again?\n${SHELL_OUTPUTS[0]}`, difficulty: 2, stakes: 'high' };
  } },
  { id: 'practice', gen(r) {
    return dpick(r, [[2, 'What is the difference between blue/green and canary deployments?'], [2, 'How should we structure on-call rotations for a team of 6?'], [2, 'Is GitOps worth it for a 5-person team?'], [4, 'How do we reduce our AWS bill by 30% without hurting reliability?'], [3, 'Should we move from ECS to Kubernetes?']]);
  } },
  { id: 'es', lang: 'es', gen(r) {
    return { text: `${r.pick(['Se cayó producción,', 'Tenemos una alerta en producción:', 'El servicio de pagos no responde,'])} ${r.pick(['los pods están en CrashLoopBackOff', 'la latencia subió a 10 segundos', 'el disco del servidor está lleno'])}. ¿Qué hago primero?`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { text: `${r.pick(['Incident en production :', 'Alerte en prod :', 'On a une panne :'])} ${r.pick(['la base de données ne répond plus', 'le déploiement a cassé le paiement', 'le certificat TLS a expiré', 'les pods redémarrent en boucle', 'la latence a explosé depuis 10 minutes', 'le disque du serveur est plein'])}. ${r.pick(['Comment on gère ça ?', 'On fait un rollback ?', 'Que vérifier en premier ?'])}`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { text: `${r.pick(['Wir haben einen Ausfall:', 'Produktionsstörung:', 'Alarm in Prod:'])} ${r.pick(['der Kubernetes-Cluster hat keine freien Nodes mehr', 'das Deployment von gestern macht Fehler', 'die Replikation hängt', 'der Load Balancer liefert 502', 'die Queue läuft voll'])}. ${r.pick(['Wie gehen wir vor? Rollback?', 'Was prüfen wir zuerst?', 'Wie stabilisieren wir das System?'])}`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: `Nosso ${r.pick(['servidor de produção', 'cluster Kubernetes', 'banco de dados'])} ${r.pick(['caiu', 'está com latência alta', 'ficou sem disco'])}. Como fazer o rollback e monitorar?`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return { text: `线上${r.pick(['服务挂了', '数据库主从延迟很高', 'Pod一直重启', '接口大量超时', '磁盘快满了', '发布后错误率飙升'])}，${r.pick(['怎么快速排查和恢复？', '要不要回滚？', '先看哪些监控？'])}`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    return { text: `本番環境で${r.pick(['障害が発生しています', 'エラー率が急上昇しています', 'ディスクが満杯です', 'Podが再起動を繰り返しています', 'レプリケーションが遅延しています'])}。${r.pick(['まず何を確認すべきですか？', 'ロールバックすべきですか？', '復旧手順を教えてください。'])}`, difficulty: 3, stakes: 'high' };
  } },
];

export const security_audit = [
  { id: 'iam', gen(r) {
    const policy = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"${r.pick(['s3:*', '*', 'iam:PassRole', 'ec2:*'])}","Resource":"*"}${r.chance(0.5) ? ',{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::customer-exports/*"}' : ''}]}`;
    return { text: `Audit this IAM policy for over-permissive access and tell me what to lock down:\n${policy}`, system: genericSystem(r), difficulty: 3, stakes: 'high' };
  } },
  { id: 'pentest', gen(r) {
    const findings = r.sample(['open SSH (22) to 0.0.0.0/0 on 14 hosts', 'TLS 1.0 enabled on the load balancer', 'default admin credentials on the Jenkins server', 'S3 bucket with public listing', 'outdated OpenSSL 1.0.2 on the VPN appliance', 'no MFA for 23 admin accounts', 'Redis exposed without auth', 'wildcard CORS on internal APIs'], r.int(2, 5));
    return { text: `Our external pentest found:\n${findings.map((f) => '- ' + f).join('\n')}\nPrioritize these by risk, map them to CVSS ranges and propose a remediation plan with owners.`, difficulty: clamp(2 + findings.length / 2), stakes: 'high' };
  } },
  { id: 'compliance', gen(r) {
    return { text: `We're preparing for ${r.pick(['SOC 2 Type II', 'ISO 27001', 'PCI DSS 4.0', 'HIPAA', 'GDPR'])}. Audit our current controls against the requirements and list gaps: ${r.sample(['no centralized logging', 'shared root credentials', 'laptops not encrypted', 'no vendor risk reviews', 'backups never restored in a test', 'no access reviews in 18 months', 'production data in staging'], r.int(2, 4)).join('; ')}.`, difficulty: 4, stakes: 'high' };
  } },
  { id: 'threat-model', gen(r) {
    return { text: `Threat model our ${r.pick(['new mobile banking app', 'patient-data API for clinics', 'B2B file-sharing product', 'internal admin panel', 'LLM agent that can send emails and run SQL'])} using STRIDE. Identify trust boundaries, top threats and mitigations.`, difficulty: 4, stakes: 'high' };
  } },
  { id: 'cve', gen(r) {
    return { text: `Is our stack affected by ${r.pick(['CVE-2021-44228 (Log4Shell)', 'CVE-2023-4863 (libwebp heap overflow)', 'CVE-2024-3094 (xz backdoor)', 'CVE-2014-0160 (Heartbleed)', 'the regreSSHion OpenSSH bug'])}? We run ${r.sample(['Ubuntu 22.04', 'Java 17 with Spring Boot', 'nginx 1.24', 'Alpine images', 'Chrome-based Electron app', 'OpenSSH 9.3'], 3).join(', ')}. How do we verify and remediate across ${r.int(20, 800)} hosts?`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'config-audit', gen(r) {
    return { text: `Security audit of this sshd_config and firewall setup. What's risky?\n\`\`\`\nPermitRootLogin yes\nPasswordAuthentication yes\nX11Forwarding yes\nMaxAuthTries 10\n\`\`\`\niptables: INPUT ACCEPT all from 0.0.0.0/0 on ${r.pick(['22', '3306', '6379', '5432'])}`, difficulty: 2, stakes: 'high' };
  } },
  { id: 'incident-forensics', gen(r) {
    return { text: `We suspect a breach: ${r.pick(['unknown outbound connections to 185.x.x.x on port 4444', 'a new admin user created at 03:12 that nobody recognizes', 'our API keys appeared on a paste site', 'ransomware note found on a file server'])}. Walk me through the investigation and containment steps, what logs to preserve, and who to notify.`, difficulty: 4, stakes: 'high' };
  } },
  { id: 'k8s-audit', gen(r) {
    return { text: `Audit our Kubernetes cluster security posture: ${r.sample(['pods running as root', 'no network policies', 'cluster-admin bound to the CI service account', 'secrets in plain ConfigMaps', 'privileged DaemonSets', 'dashboard exposed publicly'], r.int(2, 4)).join(', ')}. Produce findings with severity and fixes.`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'agent-audit', gen(r) {
    return { text: `${r.pick(['Continue the security audit:', 'Next audit step:', 'Scan finished.', 'Good, now'])} ${r.pick(['check which of these ports should not be exposed and whether TLS is configured correctly.', 'assess each open service for default credentials and known CVEs.', 'rate the exposure of each service and draft the findings table.', 'compare this against our hardening baseline and list deviations.'])}`, system: r.pick([AGENT_SYSTEMS[2], 'You are a security auditing agent with nmap and ssl-scan tools.']), turn: 'agent', tool_result: `PORT     STATE SERVICE\n22/tcp   open  ssh\n80/tcp   open  http\n443/tcp  open  https\n${r.pick(['3306/tcp open  mysql', '6379/tcp open  redis', '9200/tcp open  elasticsearch', '27017/tcp open mongodb'])}`, turns: r.int(3, 12), difficulty: 3, stakes: 'high' };
  } },
  { id: 'vendor', gen(r) {
    return { text: `Review the security questionnaire answers from ${r.pick(COMPANIES)} (our new payroll vendor) and flag weak areas: encryption at rest "planned", pentest "2019", SSO "not supported", data residency "${r.pick(CITIES)} only".`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'es', lang: 'es', gen(r) {
    return { text: `${r.pick(['Haz una auditoría de seguridad de', 'Audita la seguridad de', 'Revisa la postura de seguridad de'])} ${r.pick(['nuestra infraestructura en AWS', 'la red de la oficina', 'nuestros servidores Linux', 'la configuración de Active Directory', 'nuestro clúster de Kubernetes'])}: ${r.pick(['puertos abiertos al público, contraseñas por defecto y backups sin cifrar', 'usuarios sin MFA y permisos de administrador compartidos', 'certificados caducados y TLS 1.0', 'logs que no se centralizan y accesos de ex empleados'])}. Prioriza los riesgos.`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { text: `${r.pick(['Réalise un audit de sécurité de', 'Audite la sécurité de', 'Évalue la posture de sécurité de'])} ${r.pick(['notre SI', 'notre cloud Azure', 'nos postes de travail', 'notre application mobile', 'nos accès VPN'])} ${r.pick(['avant la certification ISO 27001', 'avant la certification HDS', 'avant l’audit SOC 2', 'après une tentative de phishing'])} : quelles lacunes et quelles priorités ?`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { text: `${r.pick(['Führe ein Sicherheitsaudit', 'Mach eine Sicherheitsprüfung', 'Bewerte die Sicherheit'])} ${r.pick(['unserer AWS-Umgebung', 'unserer Firewall-Regeln', 'unserer Active-Directory-Konfiguration', 'unseres Kubernetes-Clusters', 'unserer VPN-Zugänge'])} durch und ${r.pick(['priorisiere die Schwachstellen nach Risiko.', 'erstelle eine Maßnahmenliste mit Verantwortlichen.', 'bewerte sie nach CVSS.'])}`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: `${r.pick(['Precisamos de uma auditoria de segurança para a LGPD:', 'Faça uma auditoria de segurança na nossa infraestrutura:', 'Avalie os riscos de segurança:'])} ${r.pick(['dados pessoais em planilhas compartilhadas', 'backups sem criptografia', 'acesso de ex-funcionários ainda ativo', 'senhas padrão nos roteadores', 'servidores sem atualização há dois anos'])}. ${r.pick(['Quais são os riscos e o plano de correção?', 'Priorize por gravidade.', 'Monte um plano de ação.'])}`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return { text: `${r.pick(['请对我们的', '帮忙审计一下', '评估一下'])}${r.pick(['云服务器配置', '内网安全策略', 'Kubernetes集群', '员工账号权限', '对外暴露的端口'])}${r.pick(['做一次安全审计，列出高风险项和整改建议。', '的安全风险，按严重程度排序。', '，对照等保2.0找出差距。'])}`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    return { text: `${r.pick(['AWS環境', '社内ネットワーク', 'Webサーバー', '従業員のアカウント管理', 'VPN機器'])}の${r.pick(['セキュリティ監査を行い、リスクの高い項目と対策を挙げてください。', '脆弱性診断の結果を評価して、優先順位をつけてください。', 'セキュリティ体制をISMSの観点で点検してください。'])}`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'learning', gen(r) {
    // Practice targets and coursework: same vocabulary, nothing real at risk.
    return dpick(r, [[2, `I'm practicing for ${r.pick(['OSCP', 'a CTF this weekend', 'my security class'])}. Audit this deliberately vulnerable VM config and list what an attacker would try first: SSH with password auth, an old vsftpd, and a world-writable cron script.`], [2, 'Audit the security of my homelab: a Raspberry Pi running Pi-hole, Plex exposed on port 32400, and router admin on the default password.'], [1, 'What does a security audit usually cover? Explaining it for a school presentation.'], [2, 'Review the firewall rules on my personal Minecraft server for anything dumb.']]);
  } },
];
