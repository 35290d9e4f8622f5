// Templates for the agent:* kinds of work.
import { clamp, person, email, COMPANIES, CITIES, PRODUCTS, AGENT_SYSTEMS, FIRST_NAMES } from './lib.mjs';

const TOOL_SCHEMA_SYSTEMS = [
  'You can call these functions:\n[{"name":"get_weather","description":"Current weather for a city","parameters":{"type":"object","properties":{"city":{"type":"string"},"unit":{"enum":["C","F"]}}}},{"name":"get_time","parameters":{"properties":{"tz":{"type":"string"}}}}]',
  'Tools:\n- calendar.create_event(title, start, end, attendees[])\n- calendar.list_events(day)\n- email.send(to, subject, body)\nCall exactly one tool per turn using JSON.',
  'You are a function-calling assistant. Available functions: search_products(query, max_price), add_to_cart(sku, qty), get_order_status(order_id), cancel_order(order_id).',
  'Available tools (OpenAI function format): lookup_customer(email), create_ticket(subject, priority, body), refund_payment(payment_id, amount_cents), escalate(team).',
  'Tools: slack.post_message(channel, text), jira.create_issue(project, summary, description), github.create_pr(repo, head, base, title).',
  'functions: convert_currency(amount, from, to), get_stock_quote(symbol), calculator(expression)',
];

const WORKFLOWS = [
  { name: 'employee onboarding', steps: ['create the Google Workspace account', 'add them to the engineering Slack channels', 'order a laptop', 'schedule the day-one orientation', 'send the welcome email'], stakes: 'normal' },
  { name: 'monthly invoice run', steps: ['export unbilled usage from the billing DB', 'generate invoices as PDF', 'email each customer their invoice', 'post the totals to the finance channel'], stakes: 'high' },
  { name: 'release checklist', steps: ['tag the release in git', 'build and push the Docker images', 'run the smoke tests against staging', 'promote to production', 'post release notes'], stakes: 'high' },
  { name: 'refund approval', steps: ['look up the order', 'check the refund policy window', 'issue the refund through the payments API', 'notify the customer', 'close the ticket'], stakes: 'high' },
  { name: 'lead intake', steps: ['parse the form submission', 'enrich the company from the CRM', 'score the lead', 'assign it to a sales rep', 'create a follow-up task'], stakes: 'normal' },
  { name: 'KYC verification', steps: ['fetch the uploaded ID documents', 'run the document check', 'compare the selfie match score', 'record the decision in the compliance log'], stakes: 'high' },
  { name: 'weekly report', steps: ['pull last week metrics from the warehouse', 'build the charts', 'write the summary', 'send it to the leadership list'], stakes: 'normal' },
  { name: 'offboarding', steps: ['revoke SSO access', 'transfer their Drive files to the manager', 'remove them from on-call rotations', 'archive their mailbox'], stakes: 'high' },
  { name: 'content publishing', steps: ['pull the approved draft from Notion', 'convert it to Markdown', 'upload images to the CDN', 'publish to the CMS', 'share on social channels'], stakes: 'normal' },
];

export const workflow_execution = [
  { id: 'run-wf', gen(r) {
    const w = r.pick(WORKFLOWS);
    const who = person(r);
    return { text: `Run the ${w.name} workflow${w.name.includes('boarding') ? ` for ${who}` : ''}. Steps:\n${w.steps.map((s, i) => `${i + 1}. ${s}`).join('\n')}\nReport the result of each step and stop if one fails.`, system: r.pick([AGENT_SYSTEMS[5], AGENT_SYSTEMS[2], undefined]), turn: 'agent', turns: r.int(1, 3), difficulty: clamp(1 + w.steps.length / 2), stakes: w.stakes };
  } },
  { id: 'continue-wf', gen(r) {
    const w = r.pick(WORKFLOWS);
    const i = r.int(1, w.steps.length - 1);
    const ok = r.chance(0.7);
    return { text: ok ? `Step ${i} done. Continue with the next step of the ${w.name} workflow.` : `Step ${i} failed. Retry it once, and if it fails again, skip to the notification step and flag it.`, system: AGENT_SYSTEMS[5], turn: 'agent', tool_result: ok ? `{"step": ${i}, "action": "${w.steps[i - 1]}", "status": "ok"}` : `{"step": ${i}, "status": "error", "error": "${r.pick(['timeout after 30s', '403 Forbidden', 'rate limited', 'validation failed'])}"}`, turns: r.int(4, 20), difficulty: ok ? 2 : 3, stakes: w.stakes };
  } },
  { id: 'sop', gen(r) {
    const w = r.pick(WORKFLOWS);
    return { text: `Execute our SOP for ${w.name} on the batch of ${r.int(3, 250)} records attached. Use the tools; don't ask me for confirmation between steps unless something looks wrong.`, system: r.pick(AGENT_SYSTEMS), turn: 'agent', turns: r.int(1, 4), difficulty: 3, stakes: w.stakes };
  } },
  { id: 'zapier', gen(r) {
    const trig = r.pick(['a new row is added to the Leads sheet', 'a Stripe payment succeeds', 'a GitHub issue is labeled "bug"', 'a form response arrives']);
    const acts = r.sample(['create a HubSpot contact', 'send a Slack alert to #sales', 'create a Jira ticket', 'append to the weekly digest doc', 'send a thank-you email'], r.int(2, 4));
    return { text: `When ${trig}, ${acts.join(', then ')}. Run it now for the latest event.`, turn: 'agent', system: AGENT_SYSTEMS[2], tool_result: `{"event_id":"evt_${r.hex(10)}","received_at":"${r.date()}T${r.time()}Z"}`, turns: r.int(2, 8), difficulty: clamp(1 + acts.length / 2), stakes: trig.includes('payment') ? 'high' : 'normal' };
  } },
  { id: 'batch-actions', gen(r) {
    const n = r.int(5, 60);
    return { text: `For each of the ${n} customers in the list, ${r.pick(['update their plan to the new pricing tier and email them the change', 'apply the 15% loyalty credit and log it', 'reset their API key and notify them', 'migrate their data to the EU region'])}. Process them in order and give me a summary at the end.`, turn: 'agent', system: AGENT_SYSTEMS[2], tool_result: r.chance(0.5) ? `processed ${r.int(1, n)}/${n}, 0 errors` : undefined, turns: r.int(2, 30), difficulty: 3, stakes: 'high' };
  } },
  { id: 'es', lang: 'es', gen(r) {
    const w = r.pick(WORKFLOWS);
    return { text: `Ejecuta el flujo de trabajo de ${r.pick(['alta de empleados', 'facturación mensual', 'aprobación de reembolsos'])}: ${w.steps.slice(0, 3).join('; ')}. Informa el resultado de cada paso.`, turn: 'agent', system: AGENT_SYSTEMS[5], turns: r.int(1, 5), difficulty: 3, stakes: w.stakes };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { text: `Étape ${r.int(2, 5)} terminée. Passe à l'étape suivante du processus ${r.pick(["d'intégration", 'de clôture mensuelle', 'de publication'])}.`, turn: 'agent', tool_result: '{"status":"ok"}', turns: r.int(4, 15), difficulty: 2 };
  } },
  { id: 'de', lang: 'de', gen(r) {
    const w = r.pick(WORKFLOWS);
    return { text: `Führe den Workflow "${r.pick(['Neukunden-Anlage', 'Rechnungslauf', 'Release', 'Mitarbeiter-Onboarding', 'Rückerstattung', 'Monatsabschluss'])}" aus: ${r.pick(['Schritt für Schritt, und melde Fehler sofort.', 'alle Schritte der Reihe nach, ohne Rückfrage.', `beginne bei Schritt ${r.int(1, 3)} und protokolliere jedes Ergebnis.`])}`, turn: 'agent', system: r.pick([AGENT_SYSTEMS[5], AGENT_SYSTEMS[2]]), tool_result: r.chance(0.4) ? `{"step": ${r.int(1, 4)}, "status": "ok"}` : undefined, turns: r.int(1, 8), difficulty: 3, stakes: w.stakes };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: `Execute o processo de ${r.pick(['onboarding do cliente', 'fechamento do mês', 'envio de notas fiscais', 'aprovação de reembolso', 'cadastro de fornecedores', 'publicação do conteúdo'])} ${r.pick(['seguindo os passos da planilha', 'conforme o procedimento padrão', 'passo a passo, registrando cada resultado'])} e ${r.pick(['me avise quando terminar', 'pare se algum passo falhar', 'envie um resumo no final'])}.`, turn: 'agent', system: r.pick([AGENT_SYSTEMS[5], undefined]), turns: r.int(1, 6), difficulty: 3, stakes: r.chance(0.4) ? 'high' : 'normal' };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    const ok = r.chance(0.7);
    return { text: ok ? `手順${r.int(2, 6)}が完了しました。${r.pick(['ワークフローの次のステップを実行してください。', '続けて次の処理に進んでください。', '残りの手順を順番に実行してください。'])}` : `手順${r.int(2, 6)}が失敗しました。${r.pick(['一度だけ再試行してください。', 'スキップして通知の手順に進んでください。'])}`, turn: 'agent', system: r.pick([AGENT_SYSTEMS[5], undefined]), tool_result: ok ? '{"status":"ok"}' : '{"status":"error","error":"timeout"}', turns: r.int(4, 15), difficulty: ok ? 2 : 3 };
  } },
];

const GOALS = [
  [3, 'migrate our blog from WordPress to a static site on Netlify without losing SEO rankings'],
  [4, 'move our monolith\'s billing module into a separate service with zero downtime'],
  [3, 'organize a 2-day offsite for 40 people in ' + 'Lisbon' + ' under a fixed budget'],
  [2, 'set up a new laptop for development'],
  [4, 'launch the product in Germany: localization, VAT, payment methods and support hours'],
  [3, 'research competitors, draft a positioning doc and get sign-off from three stakeholders'],
  [5, 'plan the migration of 300 microservices from on-prem VMs to Kubernetes across two clouds, with dependency ordering and rollback plans'],
  [3, 'answer the customer question, which needs data from the CRM, the billing system and the docs'],
  [4, 'find the root cause of the churn spike last month using the warehouse, support tickets and release notes'],
];

export const multi_step_planning = [
  { id: 'plan-goal', gen(r) {
    const [d, g] = r.pick(GOALS);
    return { text: `Before doing anything, make a step-by-step plan to ${g}. List the sub-tasks, their dependencies, which tools you'd use for each and how you'll verify success.`, system: r.pick([...AGENT_SYSTEMS, undefined]), turn: r.pick(['agent', 'chat']), difficulty: d };
  } },
  { id: 'decompose', gen(r) {
    const [d, g] = r.pick(GOALS);
    return { text: `Break this goal down into a task graph I can hand to other agents: ${g}. Output JSON with id, description, depends_on and owner.`, system: AGENT_SYSTEMS[0], turn: 'agent', difficulty: clamp(d + 0.5) };
  } },
  { id: 'replan', gen(r) {
    return { text: `The plan hit a snag: ${r.pick(['the API we needed is deprecated', 'step 3 returned no data', 'the budget was cut by 30%', 'legal blocked the data export', 'the deploy window moved to Friday'])}. Revise the remaining steps and re-order them.`, system: AGENT_SYSTEMS[0], turn: 'agent', tool_result: `{"plan":[{"id":1,"status":"done"},{"id":2,"status":"done"},{"id":3,"status":"blocked"},{"id":4,"status":"pending"},{"id":5,"status":"pending"}]}`, turns: r.int(5, 25), difficulty: 3 };
  } },
  { id: 'which-tools', gen(r) {
    const q = r.pick(['Find all customers in Spain who churned last quarter and email their account managers a summary', 'Compare our Q3 cloud bill with Q2 and open tickets for the top 3 cost increases', 'Collect the latest papers on retrieval-augmented generation and build a reading list with notes', 'Reconcile the Stripe payouts with the bank statement for March']);
    return { text: `Task: ${q}.\nFirst think about the sequence of tool calls you will need, in order, with the inputs for each. Don't call anything yet.`, system: r.pick(AGENT_SYSTEMS), turn: 'agent', difficulty: 3, stakes: q.includes('Reconcile') ? 'high' : 'normal' };
  } },
  { id: 'project-plan', gen(r) {
    const p = r.pick(['a mobile app MVP in 8 weeks with two engineers', 'SOC 2 readiness in 6 months', 'moving the data warehouse from Redshift to BigQuery', 'rewriting the search service with vector search']);
    return { text: `Create a multi-phase execution plan for ${p}: milestones, critical path, risks, and what can run in parallel.`, difficulty: 4, system: r.pick([undefined, 'You are a planning agent. Produce plans, never execute.']) };
  } },
  { id: 'react-loop', gen(r) {
    return { text: `Goal: ${r.pick(GOALS)[1]}.\nThought: I need more information.\nWhat should the next three actions be and why?`, system: AGENT_SYSTEMS[0], turn: 'agent', tool_result: r.chance(0.5) ? `search("${r.pick(['pricing', 'vat rules', 'kubernetes migration'])}") -> 8 results` : undefined, turns: r.int(2, 12), difficulty: 3 };
  } },
  { id: 'es', lang: 'es', gen(r) {
    return { text: `${r.pick(['Antes de ejecutar nada, arma un plan paso a paso para', 'Divide en subtareas con dependencias el objetivo de', 'Planifica las etapas necesarias para'])} ${r.pick(['migrar la base de datos a la nube', 'lanzar la tienda online en México', 'automatizar el reporte semanal', 'abrir una nueva oficina en Bogotá', 'cambiar de proveedor de pagos', 'preparar la auditoría anual'])}${r.pick([', con dependencias y herramientas.', '. Indica qué herramienta usarás en cada paso.', '. No ejecutes nada todavía.'])}`, turn: r.pick(['agent', 'chat']), system: r.pick([AGENT_SYSTEMS[0], undefined]), difficulty: 3 };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { text: `${r.pick(['Décompose cet objectif en sous-tâches ordonnées avec leurs dépendances :', 'Établis un plan en plusieurs étapes, sans rien exécuter, pour', 'Quel serait ton plan d’action détaillé pour'])} ${r.pick(['préparer le lancement du produit au Canada', 'migrer notre CRM', 'organiser un séminaire pour 50 personnes', 'passer notre infrastructure sur Kubernetes', 'répondre à un appel d’offres public', 'réduire le churn de 20 %'])} ?`, turn: r.pick(['agent', 'chat']), system: r.pick([AGENT_SYSTEMS[0], undefined]), difficulty: 3 };
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { text: `${r.pick(['Erstelle einen mehrstufigen Plan (mit Abhängigkeiten und Werkzeugen), um', 'Zerlege das Ziel in Teilaufgaben mit Reihenfolge, um', 'Plane die einzelnen Schritte, bevor du handelst, um'])} ${r.pick(['unsere Buchhaltung auf DATEV umzustellen', 'den Onlineshop nach Österreich zu erweitern', 'die Monolith-Anwendung aufzuteilen', 'ein neues ERP-System einzuführen', 'die Cloud-Kosten zu halbieren', 'eine Kundenumfrage auszuwerten und Maßnahmen abzuleiten'])}. ${r.pick(['Noch nichts ausführen.', 'Nenne Risiken pro Schritt.', ''])}`.trim(), turn: 'agent', system: r.pick([AGENT_SYSTEMS[0], undefined]), difficulty: 4 };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return { text: `${r.pick(['先不要执行，请制定一个分步骤计划：', '请把这个目标拆解成有依赖关系的子任务：', '在调用工具之前，先规划一下步骤：'])}${r.pick(['把系统迁移到云上', '分析上个月用户流失的原因', '上线新的支付方式', '组织一次公司年会', '把数据仓库换成新的平台', '在日本开设分公司'])}，${r.pick(['列出每一步需要的工具和依赖关系。', '说明每一步如何验证。', '标出可以并行的步骤。'])}`, turn: 'agent', system: r.pick([AGENT_SYSTEMS[0], undefined]), difficulty: 3 };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: `${r.pick(['Monte um plano com etapas e dependências para', 'Quebre em subtarefas ordenadas o objetivo de', 'Antes de agir, planeje os passos para'])} ${r.pick(['migrar o e-commerce para outra plataforma', 'implantar o novo ERP', 'automatizar o atendimento', 'abrir uma filial em Portugal', 'trocar o gateway de pagamento', 'preparar a empresa para a LGPD'])}. ${r.pick(['Só o plano, sem executar.', 'Diga quais ferramentas usar em cada etapa.', ''])}`.trim(), turn: 'agent', system: r.pick([AGENT_SYSTEMS[0], undefined]), difficulty: 3 };
  } },
];

export const tool_dispatch = [
  { id: 'weather', gen(r) {
    return { text: r.pick([`What's the weather in ${r.pick(CITIES)} right now?`, `Is it going to rain in ${r.pick(CITIES)}? Use Fahrenheit.`, `Temperature in ${r.pick(CITIES)} and what time is it there?`]), system: TOOL_SCHEMA_SYSTEMS[0], turn: 'agent', difficulty: 1 };
  } },
  { id: 'calendar', gen(r) {
    return { text: `${r.pick(['Book', 'Schedule', 'Set up'])} a ${r.pick([30, 45, 60])}-minute meeting with ${person(r)} ${r.pick(['tomorrow at 3pm', 'next Tuesday morning', 'on Friday after lunch'])} about ${r.pick(['the Q3 roadmap', 'hiring', 'the vendor contract'])} and email them the invite.`, system: TOOL_SCHEMA_SYSTEMS[1], turn: 'agent', difficulty: 2 };
  } },
  { id: 'shop', gen(r) {
    return { text: r.pick([`Find me ${r.pick(PRODUCTS)} under $${r.int(30, 300)} and add the best rated one to my cart.`, `Where is my order #${r.int(100000, 999999)}?`, `Cancel order ${r.int(100000, 999999)}, I ordered the wrong size.`]), system: TOOL_SCHEMA_SYSTEMS[2], turn: 'agent', difficulty: 1 };
  } },
  { id: 'support-tools', gen(r) {
    return { text: `Customer ${email(r)} was double charged. ${r.pick(['Refund the duplicate payment and open a ticket.', 'Look them up and escalate to billing.', 'Issue a refund of the second charge.'])}`, system: TOOL_SCHEMA_SYSTEMS[3], turn: 'agent', difficulty: 2, stakes: 'high' };
  } },
  { id: 'dev-tools', gen(r) {
    return { text: r.pick(['Post "deploy finished ✅" in #releases.', 'Create a Jira issue in PLAT for the flaky login test and link the CI run.', 'Open a PR from fix/timeout to main titled "Raise upstream timeout".', 'Tell #oncall that the incident is resolved.']), system: TOOL_SCHEMA_SYSTEMS[4], turn: 'agent', difficulty: 1 };
  } },
  { id: 'finance-tools', gen(r) {
    return { text: r.pick([`Convert ${r.int(50, 5000)} EUR to JPY.`, `What's ${r.int(2, 99)}% of ${r.int(1000, 90000)}?`, `Get the quote for ${r.pick(['AAPL', 'MSFT', 'NVDA', 'TSLA'])}.`]), system: TOOL_SCHEMA_SYSTEMS[5], turn: 'agent', difficulty: 1 };
  } },
  { id: 'pick-tool', gen(r) {
    const tools = r.sample(['search_docs', 'run_sql', 'send_email', 'create_ticket', 'get_weather', 'translate', 'calculator', 'fetch_url', 'calendar_create'], r.int(4, 7));
    return { text: `Given the tools [${tools.join(', ')}], which one should handle this request, and with what arguments? Request: "${r.pick(['How many orders shipped yesterday?', 'Remind the team about Friday\'s demo', 'What does error E1043 mean in our docs?', 'Is 7 * 1.19 more than 8?'])}". Respond only with the JSON tool call.`, turn: 'agent', difficulty: 2 };
  } },
  { id: 'after-result', gen(r) {
    return { text: `Now ${r.pick(['email that summary to my manager', 'put it on my calendar', 'convert that to dollars', 'create a ticket for it'])}.`, system: r.pick(TOOL_SCHEMA_SYSTEMS), turn: 'agent', tool_result: r.pick([`{"temp_c": ${r.int(-5, 35)}, "conditions": "cloudy"}`, '{"total": 1289.40, "currency": "EUR"}', '{"events": []}']), turns: r.int(3, 9), difficulty: 1 };
  } },
  { id: 'parallel', gen(r) {
    return { text: `Get the weather for ${r.sample(CITIES, 3).join(', ')} in parallel and tell me which is warmest.`, system: TOOL_SCHEMA_SYSTEMS[0], turn: 'agent', difficulty: 2 };
  } },
  { id: 'es', lang: 'es', gen(r) {
    return { text: r.pick([`¿Qué tiempo hace en ${r.pick(CITIES)}?`, `Agenda una reunión con ${person(r)} mañana a las 10.`, `Cancela el pedido ${r.int(10000, 99999)}.`]), system: r.pick(TOOL_SCHEMA_SYSTEMS.slice(0, 3)), turn: 'agent', difficulty: 1 };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { text: r.pick([`Quel temps fait-il à ${r.pick(CITIES)} ?`, `Envoie un message sur #general pour dire que la démo est reportée.`, `Crée un ticket prioritaire pour le client ${email(r)}.`]), system: r.pick(TOOL_SCHEMA_SYSTEMS), turn: 'agent', difficulty: 1 };
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { text: r.pick([`Wie ist das Wetter in ${r.pick(CITIES)}?`, `Leg einen Termin mit ${person(r)} für Donnerstag 14 Uhr an.`, `Rechne ${r.int(100, 900)} USD in EUR um.`]), system: r.pick(TOOL_SCHEMA_SYSTEMS), turn: 'agent', difficulty: 1 };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: r.pick([`Qual a previsão do tempo em ${r.pick(CITIES)}?`, `Marque uma reunião com ${person(r)} amanhã às 15h.`, `Onde está meu pedido ${r.int(10000, 99999)}?`]), system: r.pick(TOOL_SCHEMA_SYSTEMS), turn: 'agent', difficulty: 1 };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return { text: r.pick([`${r.pick(['北京', '上海', '深圳'])}现在天气怎么样？`, `帮我约${r.pick(FIRST_NAMES)}明天下午三点开会。`, `把${r.int(100, 9000)}人民币换算成美元。`]), system: r.pick(TOOL_SCHEMA_SYSTEMS), turn: 'agent', difficulty: 1 };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    return { text: r.pick(['東京の天気を教えて。', '明日の10時に会議を入れてください。', `注文番号${r.int(10000, 99999)}をキャンセルして。`]), system: r.pick(TOOL_SCHEMA_SYSTEMS), turn: 'agent', difficulty: 1 };
  } },
  { id: 'chained', gen(r) {
    return { text: `Look up the customer ${email(r)}, find their last order, and if it shipped more than ${r.int(5, 14)} days ago without delivery, create a priority ticket and email them the ticket number. Use the tools in that order with the outputs feeding the next call.`, system: r.pick([TOOL_SCHEMA_SYSTEMS[2], TOOL_SCHEMA_SYSTEMS[3]]), turn: 'agent', difficulty: 3 };
  } },
];

const CONV_SNIPPETS = [
  (r) => `User: I'm ${person(r).split(' ')[0]}, I work as a ${r.pick(['nurse', 'data engineer', 'teacher', 'product manager', 'lawyer'])} in ${r.pick(CITIES)}.\nAssistant: Nice to meet you!\nUser: I'm vegetarian and allergic to peanuts, so keep that in mind for recipes.`,
  (r) => `User: my daughter ${r.pick(FIRST_NAMES)} starts school in September\nAssistant: Exciting!\nUser: yeah, and we're moving to ${r.pick(CITIES)} in August, so lots going on`,
  (r) => `User: please always answer in bullet points, I hate long paragraphs\nAssistant: Got it.\nUser: also I use Python 3.12 and VS Code on a Mac`,
  (r) => `User: remind me that my passport expires on ${r.date()}\nAssistant: Noted.\nUser: and my wife's birthday is ${r.pick(['March 3', 'July 19', 'November 28'])}`,
  (r) => `User: we're a team of ${r.int(3, 40)} at ${r.pick(COMPANIES)} and we use Jira + GitHub\nAssistant: Thanks for the context.\nUser: our sprints are two weeks and start on Mondays`,
  (r) => `User: I take ${r.pick(['metformin', 'lisinopril', 'levothyroxine'])} every morning\nAssistant: Thanks for telling me.\nUser: my doctor said to avoid grapefruit`,
];

export const memory_extraction = [
  { id: 'extract', gen(r) {
    const conv = r.pick(CONV_SNIPPETS)(r);
    const medical = conv.includes('metformin') || conv.includes('lisinopril') || conv.includes('levothyroxine');
    return { text: `${r.pick(['Extract durable facts about the user from this conversation and return them as memory entries (JSON list of {key, value, confidence}).', 'What should be saved to long-term memory from this exchange? Ignore small talk.', 'Update the user profile memory with any new preferences or facts.'])}\n\n${conv}`, system: r.pick([AGENT_SYSTEMS[6], 'You maintain a memory store for a personal assistant. Only store stable facts and preferences.', undefined]), turn: 'agent', difficulty: 2, stakes: medical ? 'high' : 'normal' };
  } },
  { id: 'dedupe', gen(r) {
    return { text: `Here are the existing memories and the new conversation. Decide which memories to add, update or delete, and output the operations.\nExisting: ["lives in ${r.pick(CITIES)}", "prefers email over calls", "works at ${r.pick(COMPANIES)}"]\nNew conversation:\n${r.pick(CONV_SNIPPETS)(r)}`, system: AGENT_SYSTEMS[6], turn: 'agent', tool_result: 'memory.search -> 3 results', turns: r.int(2, 8), difficulty: 3 };
  } },
  { id: 'session-summary', gen(r) {
    return { text: `${r.pick(['The session is ending.', 'We are done for today.', 'Before you forget this conversation:', 'Wrap up:'])} ${r.pick(["Write the memory note for next time: the user's goals, decisions made, open questions, and preferences.", 'Store what you learned about the user that will still matter next week.', 'Save the durable facts and preferences from this chat to memory, skip anything temporary.', 'Update the long-term profile with new facts; mark anything that contradicts older memories.'])} ${r.pick(['Keep it under 100 words.', 'Use key: value lines.', 'JSON please.', ''])}`.trim(), system: AGENT_SYSTEMS[6], turn: 'agent', tool_result: r.pick(CONV_SNIPPETS)(r), turns: r.int(8, 40), difficulty: 2 };
  } },
  { id: 'entities', gen(r) {
    return { text: `From the chat log below, extract people, projects and deadlines the user mentioned so the assistant can recall them later. Output as memory records.\n${r.pick(CONV_SNIPPETS)(r)}\nUser: the ${r.pick(['Atlas', 'Phoenix', 'Orion'])} launch is due ${r.date()} and ${person(r)} owns QA`, system: r.pick([AGENT_SYSTEMS[6], undefined]), turn: 'agent', difficulty: 2 };
  } },
  { id: 'remember', gen(r) {
    return { text: r.pick(['Remember that I prefer metric units.', `Please remember my son's name is ${r.pick(FIRST_NAMES)} and he is ${r.int(3, 16)}.`, 'Save this: our staging DB password rotates every 30 days.', 'Forget what I told you about my old address.', 'From now on, remember I am in the CET timezone.']), system: AGENT_SYSTEMS[6], turn: 'agent', difficulty: 1 };
  } },
  { id: 'es', lang: 'es', gen(r) {
    return { text: `Extrae los datos que vale la pena recordar del usuario en esta conversación:\nUsuario: vivo en ${r.pick(['Sevilla', 'Bogotá', 'Lima'])} y trabajo de ${r.pick(['enfermera', 'profesor', 'contador'])}\nUsuario: prefiero respuestas cortas`, system: AGENT_SYSTEMS[6], turn: 'agent', difficulty: 2 };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    const facts = r.sample([`je déménage à ${r.pick(['Lyon', 'Montréal', 'Bruxelles', 'Genève'])} le mois prochain`, 'je suis végétarien', 'mon fils s’appelle Hugo', 'je travaille de nuit à l’hôpital', 'je préfère les réponses courtes', 'je parle aussi espagnol', 'je suis allergique aux noix'], r.int(2, 3));
    return { text: `${r.pick(["Mets à jour la mémoire de l'utilisateur avec les nouvelles informations :", 'Quels faits durables faut-il mémoriser ?', 'Extrais les préférences de l’utilisateur à conserver :'])}\n${facts.map((f) => 'Utilisateur : ' + f).join('\n')}`, system: AGENT_SYSTEMS[6], turn: 'agent', difficulty: 2 };
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { text: `Welche Fakten über den Nutzer sollen gespeichert werden?\nNutzer: Ich heiße ${r.pick(FIRST_NAMES)} und arbeite in ${r.pick(['München', 'Hamburg', 'Wien'])} als Ingenieur.\nNutzer: Bitte duz mich.`, system: AGENT_SYSTEMS[6], turn: 'agent', difficulty: 2 };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: `${r.pick(['Salve na memória:', 'Lembre disso para as próximas conversas:', 'Guarde esta informação:'])} ${r.pick(['meu aniversário é 12 de maio', 'sou alérgico a camarão', 'trabalho das 9h às 18h', 'moro em Curitiba', 'prefiro respostas em tópicos', 'tenho dois filhos, Ana e Pedro', 'uso Linux no trabalho'])}.`, system: AGENT_SYSTEMS[6], turn: 'agent', difficulty: 1, stakes: 'normal' };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    const facts = r.sample(['大阪に住んでいます。', '猫を二匹飼っています。', '回答は日本語でお願いします。', '看護師として働いています。', '来月結婚します。', '卵アレルギーがあります。', '朝型の生活です。'], r.int(2, 3));
    return { text: `${r.pick(['この会話からユーザーについて長期記憶に保存すべき事実を抽出してください。', '記憶として残すべき情報を選んでください。', 'ユーザープロフィールを更新してください。'])}\n${facts.map((f) => 'ユーザー: ' + f).join('\n')}`, system: AGENT_SYSTEMS[6], turn: 'agent', difficulty: 2 };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return { text: `请从下面的对话中提取需要长期记住的用户信息：\n用户：我在${r.pick(['杭州', '成都', '广州'])}工作，是一名${r.pick(['医生', '程序员', '老师'])}。\n用户：我不吃辣。`, system: AGENT_SYSTEMS[6], turn: 'agent', difficulty: 2 };
  } },
];

const SEARCH_TOPICS = [
  [2, 'the latest stable release of PostgreSQL and its headline features'], [2, 'what the ECB decided on interest rates this week'],
  [2, `opening hours of the Louvre this weekend`], [3, 'recent benchmarks comparing Llama, Mistral and Qwen models on coding tasks'],
  [2, 'the current visa requirements for a US citizen visiting Vietnam'], [3, 'news about the Log4Shell-style vulnerability disclosed in a popular Java library this month'],
  [2, 'who won the match last night'], [3, 'pricing pages of the top 5 project management tools, as of today'],
  [2, 'the release date of the next iPhone'], [3, 'recent court rulings on AI-generated content and copyright in the EU'],
];

export const web_search = [
  { id: 'search', gen(r) {
    const [d, t] = r.pick(SEARCH_TOPICS);
    return { text: `${r.pick(['Search the web for', 'Look up', 'Can you google', 'Find online', 'Browse for'])} ${t}${r.pick(['.', ' and cite sources.', ', give me links.', ''])}`, system: r.pick([AGENT_SYSTEMS[3], undefined, undefined]), turn: r.pick(['agent', 'chat']), difficulty: d, stakes: t.includes('visa') || t.includes('court') ? 'high' : 'normal' };
  } },
  { id: 'with-results', gen(r) {
    const [d, t] = r.pick(SEARCH_TOPICS);
    const results = Array.from({ length: r.int(2, 5) }, (_, i) => `[${i + 1}] ${r.pick(['Reuters', 'The Verge', 'Wikipedia', 'official blog', 'Hacker News', 'Bloomberg', 'gov.uk'])} — ${r.pick(['Announced on', 'Updated', 'Published'])} ${r.date()}: ${r.pick(['…the new version adds…', '…officials confirmed…', '…according to the report…', '…prices start at…'])}`).join('\n');
    return { text: `Find ${t}. Open the most relevant result if the snippets aren't enough.`, system: AGENT_SYSTEMS[3], turn: 'agent', tool_result: `web_search -> \n${results}`, turns: r.int(2, 10), difficulty: d };
  } },
  { id: 'current', gen(r) {
    return { text: r.pick(['what is happening with the stock market today', `any news on the ${r.pick(['rail strike', 'storm', 'election'])} in ${r.pick(CITIES)}?`, 'latest version of node.js?', 'is GitHub down right now?', `what's trending on Hacker News today`, `current exchange rate euro to real`]), system: r.pick([AGENT_SYSTEMS[3], AGENT_SYSTEMS[4]]), turn: 'agent', difficulty: 1 };
  } },
  { id: 'fetch-more', gen(r) {
    return { text: `${r.pick(['The first results are outdated.', "Those snippets don't answer it.", 'Only one source so far, not enough.', 'The results are mostly ads.'])} ${r.pick(['Search again restricted to the last 30 days and fetch the top two pages.', 'Try a different query and open the official source.', 'Search news sites only and read the two most recent articles.', 'Query again in the local language and fetch the best result.'])}`, system: AGENT_SYSTEMS[3], turn: 'agent', tool_result: `web_search("${r.pick(SEARCH_TOPICS)[1]}") -> 6 results, newest ${r.date()}`, turns: r.int(3, 10), difficulty: 2 };
  } },
  { id: 'find-source', gen(r) {
    return { text: `Find a reliable source online for the claim "${r.pick(['coffee reduces the risk of type 2 diabetes', 'remote workers are more productive', 'the Great Wall is visible from space', 'most startups fail in year one'])}". Quote the relevant sentence and link it.`, system: AGENT_SYSTEMS[3], turn: 'agent', difficulty: 2 };
  } },
  { id: 'es', lang: 'es', gen(r) {
    return { text: `${r.pick(['Busca en internet', 'Haz una búsqueda web sobre', 'Encuentra en la web'])} ${r.pick(['las últimas noticias sobre la inflación en Argentina', 'el horario del Museo del Prado', 'la nueva versión de Python', 'el resultado del partido del Real Madrid', 'el precio actual del dólar en México', 'los requisitos de visado para Japón'])}${r.pick([' y dame las fuentes.', '.', ', con enlaces.'])}`, system: r.pick([AGENT_SYSTEMS[3], undefined]), turn: 'agent', difficulty: 2 };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { text: `${r.pick(['Cherche sur le web', 'Fais une recherche en ligne sur', 'Trouve sur internet'])} ${r.pick(['les derniers résultats de la Ligue 1', "l'actualité sur la réforme des retraites", 'le prix actuel du Bitcoin', 'les horaires du musée d’Orsay', 'la dernière version de Python', 'les grèves SNCF prévues cette semaine'])}${r.pick(['.', ' et cite tes sources.', ', avec les liens.'])}`, system: r.pick([AGENT_SYSTEMS[3], AGENT_SYSTEMS[4], undefined]), turn: 'agent', tool_result: r.chance(0.3) ? `web_search -> ${r.int(3, 10)} results` : undefined, turns: r.int(1, 6), difficulty: r.chance(0.5) ? 1 : 2 };
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { text: `${r.pick(['Such im Internet nach', 'Recherchiere online', 'Finde im Web'])} ${r.pick(['den aktuellen Bahnstreik-Infos', 'der neuesten Version von Kubernetes', 'Öffnungszeiten des Bürgeramts', 'den Ergebnissen der Bundesliga', 'dem aktuellen Leitzins der EZB', 'Nachrichten zum Hochwasser'])}${r.pick([' und fass die Treffer zusammen.', ' mit Quellen.', '.'])}`, system: AGENT_SYSTEMS[3], turn: 'agent', tool_result: r.chance(0.5) ? 'web_search -> 5 Treffer' : undefined, turns: r.int(1, 5), difficulty: 2 };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: `${r.pick(['Pesquise na web', 'Procure na internet', 'Busque online'])} ${r.pick(['as notícias de hoje sobre a Selic', 'o preço do novo MacBook no Brasil', 'o horário dos jogos do Brasileirão', 'a previsão do tempo para o fim de semana em Lisboa', 'a última versão do Node.js', 'as regras atuais do visto para os EUA'])}${r.pick(['.', ' e cite as fontes.', ', com links.'])}`, system: r.pick([AGENT_SYSTEMS[3], AGENT_SYSTEMS[4], undefined]), turn: 'agent', tool_result: r.chance(0.3) ? `web_search -> ${r.int(3, 10)} results` : undefined, turns: r.int(1, 6), difficulty: r.chance(0.5) ? 1 : 2 };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return { text: `${r.pick(['帮我上网搜索一下', '请在网上查一下', '搜索最新的'])}${r.pick(['最新的人工智能新闻', '今天的汇率', 'Python最新版本', '明天上海的天气', '这周的科技新闻', '最新的签证政策'])}${r.pick(['，并给出来源链接。', '。', '，列出三个来源。'])}`, system: r.pick([AGENT_SYSTEMS[3], AGENT_SYSTEMS[4], undefined]), turn: 'agent', tool_result: r.chance(0.3) ? `web_search -> ${r.int(3, 10)} results` : undefined, turns: r.int(1, 6), difficulty: r.chance(0.5) ? 1 : 2 };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    return { text: `${r.pick(['ウェブで', 'ネットで', 'インターネットで'])}${r.pick(['最新のiPhoneの発売日', '今日のニュース', '東京の天気予報', '円ドル相場', 'Pythonの最新バージョン', '新幹線の運行状況'])}を${r.pick(['検索して、出典付きで教えてください。', '調べてください。', '検索してリンクを貼ってください。'])}`, system: r.pick([AGENT_SYSTEMS[3], AGENT_SYSTEMS[4], undefined]), turn: 'agent', tool_result: r.chance(0.3) ? `web_search -> ${r.int(3, 10)} results` : undefined, turns: r.int(1, 6), difficulty: r.chance(0.5) ? 1 : 2 };
  } },
  { id: 'multi-hop', gen(r) {
    return { text: `Search the web to answer: ${r.pick(['which of the three largest EV makers had the highest gross margin last quarter, and how did that change from a year ago?', 'who is the current CEO of the company that acquired the startup behind the most-starred open-source vector database, and when did the deal close?', 'what were the last three interest-rate decisions of the Bank of Japan and the ECB, side by side?', 'which city hosting the next Olympics has the highest hotel prices this summer, per the latest reports?', 'how many CVEs were published last month for the top three web frameworks, and which was most severe?'])} ${r.pick(['The answer needs several searches; reconcile any conflicting numbers and cite every source.', 'Chain the searches as needed and cite sources.', 'Verify each fact with two independent sources.'])}`, system: AGENT_SYSTEMS[3], turn: 'agent', tool_result: r.chance(0.5) ? `web_search -> ${r.int(5, 10)} results` : undefined, turns: r.int(1, 12), difficulty: 4 };
  } },
];
