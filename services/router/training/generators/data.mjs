// Templates for classification, extraction, transformation, summarization and translation.
import { clamp, person, email, COMPANIES, PRODUCTS, CITIES, genericSystem } from './lib.mjs';
import { REVIEWS, TICKETS, EMAILS, ARTICLES, TRANSCRIPTS, CONTRACT_CLAUSES } from './texts.mjs';

const many = (r, gens, k) => Array.from({ length: k }, () => r.pick(gens)(r));

export const classification = [
  { id: 'sentiment', gen(r) {
    const k = r.int(1, 6);
    const items = many(r, REVIEWS, k);
    return { text: `${r.pick(['Classify the sentiment of', 'Label as positive, negative or neutral:', 'Sentiment analysis for', 'Give each a sentiment score from -1 to 1:'])} ${k > 1 ? 'these reviews' : 'this review'}.\n${items.map((x, i) => `${i + 1}. ${x}`).join('\n')}`, system: genericSystem(r), difficulty: k > 4 ? 2 : 1 };
  } },
  { id: 'ticket-route', gen(r) {
    const cats = r.sample(['billing', 'bug', 'feature_request', 'account_access', 'how_to', 'outage', 'privacy'], r.int(3, 6));
    const k = r.int(1, 5);
    return { text: `Categorize each support ticket into exactly one of: ${cats.join(', ')}. Return JSON {id, category}.\n${many(r, TICKETS, k).map((t, i) => `#${i + 1}: ${t}`).join('\n')}`, system: r.pick([undefined, 'You are a ticket triage classifier. Output only labels.']), difficulty: 2 };
  } },
  { id: 'spam', gen(r) {
    const msgs = ['Congratulations! You won a $1000 gift card, click here to claim', `Hi, are we still on for lunch on ${r.date()}?`, 'URGENT: your account will be suspended, verify your password at http://secure-login.example', 'Limited offer: cheap meds without prescription', `Your order #${r.int(10000, 99999)} has shipped`];
    return { text: `Is this message spam or not spam? Answer with one word.\n"${r.pick(msgs)}"`, difficulty: 1 };
  } },
  { id: 'intent', gen(r) {
    const utts = r.sample(['I want to change my flight to Friday', 'what is my balance', 'cancel my subscription', 'talk to a human', 'the app keeps crashing', 'do you ship to Canada?', 'reset my password', 'I need a receipt for last month'], r.int(3, 6));
    return { text: `Label the intent of each utterance using our taxonomy (change_booking, check_balance, cancel, handoff, bug_report, shipping_info, password_reset, billing_docs):\n${utts.map((u) => '- ' + u).join('\n')}`, difficulty: 2 };
  } },
  { id: 'topic', gen(r) {
    const a = r.pick(ARTICLES)(r);
    return { text: `Assign up to 3 topic tags from [politics, business, health, technology, science, law, weather, sports, urban] to this article:\n${a}`, difficulty: 2 };
  } },
  { id: 'transactions', gen(r) {
    const tx = Array.from({ length: r.int(4, 9) }, () => `${r.date()} ${r.pick(['UBER *TRIP', 'WHOLEFDS MKT', 'NETFLIX.COM', 'SHELL OIL', 'AMZN Mktp', 'DELTA AIR', 'CVS PHARMACY', 'RENT PAYMENT', 'STARBUCKS'])} $${r.money(3, 1800)}`);
    return { text: `Categorize these bank transactions into budget categories (groceries, transport, subscriptions, travel, health, housing, dining):\n${tx.join('\n')}`, difficulty: 1 };
  } },
  { id: 'moderation', gen(r) {
    return { text: `Content moderation: classify the following comment as one of [ok, harassment, hate, self_harm, spam, sexual]. Give a label and a confidence.\nComment: "${r.pick(['you are an idiot and everyone hates you', 'great post, thanks for sharing!', 'buy followers cheap at example.biz', "I don't see the point of anything anymore", 'this recipe is terrible lol'])}"`, difficulty: 2, stakes: 'high' };
  } },
  { id: 'triage', gen(r) {
    return { text: `Classify this patient portal message as EMERGENCY, URGENT or ROUTINE for the nurse queue:\n"${r.pick(['I have crushing chest pain and my left arm is numb', 'Can I get a refill of my allergy medication?', 'My child has had a fever of 39.5C for three days', 'Need to reschedule my appointment next week'])}"`, system: r.pick([undefined, 'You are a clinical triage classifier. Output one label.']), difficulty: 2, stakes: 'high' };
  } },
  { id: 'zero-shot', gen(r) {
    const labels = r.sample(['sports', 'finance', 'cooking', 'travel', 'tech', 'health', 'music', 'politics'], r.int(3, 5));
    return { text: `Which category fits best: ${labels.join(' / ')}?\n"${r.pick(['The new GPU doubles ray-tracing performance at the same power draw.', 'Add the garlic once the onions turn golden.', 'The striker scored twice in the second half.', 'Bond yields rose after the inflation report.', 'Our flight to Oslo was delayed six hours.'])}"`, difficulty: 1 };
  } },
  { id: 'multi-label', gen(r) {
    return { text: `Tag each product with all applicable attributes (waterproof, wireless, eco_friendly, premium, kids, outdoor). Output CSV: product,tags\n${r.sample(PRODUCTS, r.int(4, 8)).join('\n')}`, difficulty: 2 };
  } },
  { id: 'es', lang: 'es', gen(r) {
    return { text: `Clasifica el sentimiento (positivo, negativo o neutro) de estas reseñas:\n${many(r, REVIEWS, r.int(2, 4)).join('\n')}`, difficulty: 1 };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { text: `Classe ce ticket dans une catégorie : facturation, bug, demande de fonctionnalité, accès au compte.\n« ${r.pick(['Je ne peux plus me connecter depuis hier', "J'ai été facturé deux fois", "L'export PDF ne fonctionne pas", 'Pourriez-vous ajouter un mode sombre ?'])} »`, difficulty: 1 };
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { text: `Ordne jede Nachricht einer Kategorie zu (Rechnung, Technik, Vertrag, Sonstiges):\n- ${r.pick(['Meine Rechnung ist zu hoch', 'Das Internet fällt ständig aus', 'Ich möchte kündigen'])}\n- ${r.pick(['Wann kommt der Techniker?', 'Bitte Adresse ändern', 'Doppelte Abbuchung'])}`, difficulty: 1 };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: `Classifique as avaliações em positiva, negativa ou neutra:\n${many(r, REVIEWS, r.int(2, 4)).join('\n')}`, difficulty: 1 };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    const items = r.sample(['质量很好，物流也快。', '用了两天就坏了，非常失望。', '一般般，没有想象中好。', '客服态度很差，再也不买了。', '性价比很高，推荐购买。', '包装破损，但是东西没问题。', '颜色和图片不一样。', '第二次购买了，一如既往的好。'], r.int(1, 4));
    return { text: `${r.pick(['请判断下面评论的情感倾向（正面/负面/中性）：', '给这些评论打情感标签：', '下面的用户评价是正面还是负面？'])}\n${items.join('\n')}`, difficulty: 1 };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    const items = r.sample(['ログインできません。', '請求額が間違っています。', 'ダークモードを追加してほしいです。', 'アプリが起動直後に落ちます。', '解約したいです。', '領収書を発行してください。', 'パスワードを忘れました。'], r.int(1, 3));
    return { text: `${r.pick(['次の問い合わせを「請求」「不具合」「要望」「その他」に分類してください。', '以下のメッセージにカテゴリのラベルを付けてください。', '問い合わせの種類を判定してください。'])}\n${items.join('\n')}`, difficulty: 1 };
  } },
  { id: 'taxonomy', gen(r) {
    return { text: `Classify each of these ${r.int(20, 80)} product listings into our 3-level taxonomy (department > category > subcategory, ~250 leaf nodes, list attached). If a listing fits two leaves, pick the more specific one and explain. Flag listings that fit none.\n- ${r.pick(['Stainless steel 12-cup coffee maker with timer', 'Kids waterproof hiking boots size 30', 'USB-C 100W GaN charger, 3 ports', 'Organic cotton fitted sheet, queen'])}\n- ${r.pick(['Ergonomic mesh office chair', 'LED grow light for succulents', 'Noise-cancelling earbuds', 'Cast iron dutch oven 5qt'])}\n...`, difficulty: 3 };
  } },
  { id: 'paste-then-ask', gen(r) {
    const items = Array.from({ length: r.int(6, 20) }, (_, i) => `${i + 1}. ${r.pick([...REVIEWS, ...TICKETS])(r)}`);
    return { text: `${items.join('\n')}\n\n${r.pick(['Label each of the above as positive, negative or neutral.', 'Categorize every item above: billing, bug, feature_request, other.', 'Tag each line with its topic. Output CSV id,label.'])}`, difficulty: 2 };
  } },
];

export const extraction = [
  { id: 'invoice', gen(r) {
    return { text: `Extract vendor, invoice number, date, total and due date from this email as JSON.\n\n${EMAILS[0](r)}`, system: r.pick([undefined, 'Return only valid JSON matching the schema. No prose.']), difficulty: 2, stakes: r.chance(0.3) ? 'high' : 'normal' };
  } },
  { id: 'contacts', gen(r) {
    const txt = `${person(r)} (${email(r)}, +1 ${r.int(200, 999)}-${r.int(200, 999)}-${r.int(1000, 9999)}) will meet ${person(r)} from ${r.pick(COMPANIES)} in ${r.pick(CITIES)}. CC ${email(r)}.`;
    return { text: `Pull out every name, email address and phone number from the text below.\n${txt}`, difficulty: 1 };
  } },
  { id: 'ner', gen(r) {
    return { text: `Named entity recognition: list PERSON, ORG, LOCATION, DATE and MONEY entities.\n${r.pick(ARTICLES)(r)}`, difficulty: 2 };
  } },
  { id: 'resume', gen(r) {
    return { text: `From this resume, extract: full name, years of experience, skills (list), last employer, education. Output JSON.\n\n${person(r)}\n${r.pick(['Senior Backend Engineer', 'Data Analyst', 'Registered Nurse', 'Product Designer'])} — ${r.pick(COMPANIES)} (${r.int(2015, 2020)}–present)\n${r.pick(['Developer', 'Analyst', 'Assistant'])} — ${r.pick(COMPANIES)} (${r.int(2010, 2014)}–${r.int(2015, 2019)})\nSkills: ${r.sample(['Python', 'SQL', 'Kubernetes', 'Figma', 'Tableau', 'Go', 'patient care', 'AWS', 'React'], 4).join(', ')}\nEducation: ${r.pick(['BSc Computer Science', 'MSc Statistics', 'BSN Nursing', 'BA Design'])}, ${r.pick(['University of Toronto', 'TU München', 'USP', 'UCL'])}`, difficulty: 2 };
  } },
  { id: 'contract', gen(r) {
    return { text: `Extract the parties, effective date, term, renewal terms, notice period, fees and liability cap from this contract clause into a table.\n${r.pick(CONTRACT_CLAUSES)(r)}`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'lab', gen(r) {
    return { text: `Parse this lab report into structured fields (test, value, unit, reference range, flag):\nHemoglobin ${r.int(9, 17)}.${r.int(0, 9)} g/dL (13.5-17.5)\nWBC ${r.int(3, 15)}.${r.int(0, 9)} x10^9/L (4.0-11.0)\nGlucose fasting ${r.int(70, 220)} mg/dL (70-99)\nLDL ${r.int(60, 200)} mg/dL (<100)`, difficulty: 2, stakes: 'high' };
  } },
  { id: 'action-items', gen(r) {
    return { text: `List the action items with owner and deadline from this meeting transcript. Output JSON only.\n${TRANSCRIPTS[0](r)}`, difficulty: 2 };
  } },
  { id: 'schema-fill', gen(r) {
    const e = r.pick(EMAILS)(r);
    return { text: `Fill this JSON schema from the text. Use null for missing fields.\nSchema: {"customer_name": string, "order_id": string|null, "address": string|null, "items": [{"name": string, "qty": int}], "delivery_date": string|null}\nText:\n${e}`, system: 'Return only JSON.', difficulty: 2 };
  } },
  { id: 'table-from-text', gen(r) {
    return { text: `Extract every product, price and quantity mentioned in these notes into a table:\n${Array.from({ length: r.int(3, 7) }, () => `${r.pick(['we ordered', 'got', 'returned', 'need'])} ${r.int(1, 20)} ${r.pick(PRODUCTS)} at $${r.money(5, 500)} each`).join('; ')}`, difficulty: 2 };
  } },
  { id: 'log-fields', gen(r) {
    const lines = Array.from({ length: r.int(3, 8) }, () => `${r.int(10, 250)}.${r.int(0, 255)}.${r.int(0, 255)}.${r.int(1, 254)} - - [${r.int(1, 28)}/Mar/2024:${r.time()} +0000] "${r.pick(['GET', 'POST'])} ${r.pick(['/api/login', '/index.html', '/api/orders', '/admin'])} HTTP/1.1" ${r.pick([200, 301, 404, 500, 403])} ${r.int(100, 90000)}`);
    return { text: `Extract ip, timestamp, method, path and status from each log line as JSON objects:\n${lines.join('\n')}`, difficulty: 2 };
  } },
  { id: 'es', lang: 'es', gen(r) {
    return { text: `Extrae el nombre del cliente, el número de pedido y la dirección de este correo en formato JSON:\n${EMAILS[3](r)}`, difficulty: 2 };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { text: `Extrais les dates, montants et noms de sociétés de ce texte :\n${r.pick(ARTICLES)(r)}`, difficulty: 2 };
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { text: `Extrahiere Rechnungsnummer, Datum, Betrag und IBAN aus dieser E-Mail als JSON:\n${EMAILS[0](r)}`, difficulty: 2, stakes: 'high' };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: `Extraia nome, e-mail e telefone de cada contato:\n${person(r)} - ${email(r)} - (11) 9${r.int(1000, 9999)}-${r.int(1000, 9999)}\n${person(r)} - ${email(r)}`, difficulty: 1 };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return { text: `从下面的文本中提取人名、公司和金额，输出JSON：\n${person(r)}代表${r.pick(COMPANIES)}与对方签订了价值${r.int(10, 900)}万元的合同。`, difficulty: 2 };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    return { text: `次のメールから注文番号、配送先、到着予定日を抽出してJSONで出力してください。\n${EMAILS[3](r)}`, difficulty: 2 };
  } },
  { id: 'filing', gen(r) {
    return { text: `From this 10-K excerpt, extract segment revenue, operating income, YoY change and any restatements into a JSON table; reconcile segment totals to the consolidated figure and report discrepancies.\n${r.pick(ARTICLES)(r)}\nSegment A revenue $${r.int(100, 900)}M (prior $${r.int(100, 900)}M); Segment B revenue $${r.int(100, 900)}M; Consolidated $${r.int(500, 2000)}M; Note 14: prior-period amounts restated for discontinued operations.`, difficulty: 4, stakes: 'high' };
  } },
  { id: 'paste-then-ask', gen(r) {
    const parts = Array.from({ length: r.int(2, 6) }, () => r.pick([...EMAILS, ...ARTICLES])(r));
    return { text: `${parts.join('\n\n---\n\n')}\n\n${r.pick(['From everything above, extract every person, company, date and amount as JSON.', 'Pull out all invoice numbers and totals from these.', 'List every email address and phone number you find above.', 'Extract the dates and deadlines into a table.'])}`, difficulty: parts.length > 4 ? 3 : 2 };
  } },
];

const CSV = (r) => ['id,name,signup_date,country,plan', ...Array.from({ length: r.int(3, 6) }, (_, i) => `${i + 1},${person(r)},${r.int(1, 28)}/${r.int(1, 12)}/${r.int(2019, 2024)},${r.pick(['US', 'DE', 'BR', 'JP', 'FR'])},${r.pick(['free', 'pro', 'team'])}`)].join('\n');

export const transformation = [
  { id: 'csv-json', gen(r) {
    return { text: `Convert this CSV to ${r.pick(['a JSON array of objects', 'JSON Lines', 'a Markdown table', 'YAML'])}${r.chance(0.5) ? ' and convert the dates to ISO 8601' : ''}:\n${CSV(r)}`, system: genericSystem(r), difficulty: 1 };
  } },
  { id: 'json-reshape', gen(r) {
    return { text: `Reshape this JSON so that orders are grouped by customer, with totals per customer:\n\`\`\`json\n[${Array.from({ length: r.int(3, 6) }, () => `{"order_id": ${r.int(100, 999)}, "customer": "${person(r)}", "total": ${r.money(5, 500)}}`).join(', ')}]\n\`\`\``, difficulty: 2 };
  } },
  { id: 'normalize', gen(r) {
    const what = r.pick([['phone numbers to E.164', ['(555) 123-4567', '+44 20 7946 0958', '030 1234567', '555.987.6543']], ['dates to YYYY-MM-DD', ['March 3rd 2024', '03/04/24', '2024.05.06', '7 Jan 2023']], ['country names to ISO codes', ['United States', 'Deutschland', 'Brasil', 'UK']], ['addresses into street, city, postcode fields', ['221B Baker St, London NW1 6XE', '1600 Amphitheatre Pkwy, Mountain View, CA 94043']]]);
    return { text: `Normalize these ${what[0]}:\n${what[1].join('\n')}`, difficulty: 1 };
  } },
  { id: 'xml', gen(r) {
    return { text: `Convert this XML to JSON, turning attributes into fields:\n<catalog><book id="${r.int(1, 99)}" lang="en"><title>${r.pick(['Dune', 'Emma', 'Ulysses'])}</title><price currency="USD">${r.money(5, 40)}</price></book></catalog>`, difficulty: 1 };
  } },
  { id: 'mapping', gen(r) {
    return { text: `Map records from our old CRM schema to the new one.\nOld: {first, last, mail, tel, company_name, created}\nNew: {full_name, email, phone_e164, organization: {name}, created_at (ISO)}\nTransform these:\n${Array.from({ length: r.int(2, 4) }, () => JSON.stringify({ first: person(r).split(' ')[0], last: person(r).split(' ')[1], mail: email(r), tel: `${r.int(200, 999)}-${r.int(1000, 9999)}`, company_name: r.pick(COMPANIES), created: `${r.int(1, 12)}/${r.int(1, 28)}/2023` })).join('\n')}`, difficulty: 2 };
  } },
  { id: 'pivot', gen(r) {
    const rows = Array.from({ length: r.int(6, 10) }, () => `${r.pick(['North', 'South', 'East', 'West'])},${r.pick(['Q1', 'Q2', 'Q3', 'Q4'])},${r.int(100, 999)}`);
    return { text: `Pivot this so regions are rows and quarters are columns, summing duplicates:\nregion,quarter,sales\n${rows.join('\n')}`, difficulty: 2 };
  } },
  { id: 'flatten', gen(r) {
    return { text: `Flatten this nested JSON into dot-notation keys and output as CSV:\n{"user": {"id": ${r.int(1, 999)}, "name": "${person(r)}", "address": {"city": "${r.pick(CITIES)}", "geo": {"lat": 1.3, "lng": 103.8}}}, "tags": ["a", "b"]}`, difficulty: 2 };
  } },
  { id: 'units', gen(r) {
    return { text: `Convert this recipe from imperial to metric and scale it from 4 to ${r.int(6, 12)} servings:\n2 cups flour\n1 stick butter\n3/4 cup sugar\n1 tsp vanilla\n350°F for 25 minutes`, difficulty: 2 };
  } },
  { id: 'dedupe', gen(r) {
    const names = Array.from({ length: r.int(5, 9) }, () => person(r));
    names.push(names[0].toUpperCase(), ' ' + names[1]);
    return { text: `Dedupe this list case-insensitively, trim whitespace and sort by last name:\n${names.join('\n')}`, difficulty: 1 };
  } },
  { id: 'big-etl', gen(r) {
    return { text: `We receive ${r.int(2, 50)}GB of nested JSON events per day. Define the transformation to a star schema (fact_events, dim_user, dim_device), including type coercion, late-arriving dimension handling and dedup by event_id. Show the mapping rules and an example row through each step.`, difficulty: 4 };
  } },
  { id: 'es', lang: 'es', gen(r) {
    return { text: `Convierte esta tabla CSV a JSON y cambia las fechas a formato ISO:\n${CSV(r)}`, difficulty: 1 };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { text: `Transforme ce JSON en tableau Markdown :\n[${Array.from({ length: 3 }, () => `{"nom": "${person(r)}", "ville": "${r.pick(CITIES)}"}`).join(', ')}]`, difficulty: 1 };
  } },
  { id: 'de', lang: 'de', gen(r) {
    const dates = r.sample(['3. März 2024', '12.01.2023', '7.7.22', '1. Dezember 2021', '2020/05/17', '29. Februar 2024', 'Mo, 4. Nov. 2019', '15.08.1999'], r.int(3, 6));
    return { text: r.pick([`Wandle diese Datumsangaben ins ISO-Format um und sortiere sie: ${dates.join(', ')}`, `Konvertiere diese Tabelle in JSON:\nName;Stadt;Umsatz\n${r.pick(['Müller', 'Schmidt', 'Weber'])};${r.pick(['Berlin', 'Köln', 'Graz'])};${r.int(100, 9999)}\n${r.pick(['Fischer', 'Wagner'])};${r.pick(['Hamburg', 'Bern'])};${r.int(100, 9999)}`, `Normalisiere diese Telefonnummern ins E.164-Format: 030 ${r.int(1000000, 9999999)}, 0171/${r.int(1000000, 9999999)}, +49 (0) 89 ${r.int(100000, 999999)}`]), difficulty: 1 };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: `Converta este CSV para JSON agrupando por país:\n${CSV(r)}`, difficulty: 2 };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return { text: `把下面的CSV转换成JSON格式：\n${CSV(r)}`, difficulty: 1 };
  } },
];

export const summarization = [
  { id: 'article', gen(r) {
    const a = r.pick(ARTICLES)(r);
    return { text: `${r.pick(['Summarize this in 3 bullet points:', 'TL;DR?', 'Give me a one-sentence summary:', 'Summarize for a busy executive:', 'Can you summarize this article?'])}\n\n${a}`, system: genericSystem(r), difficulty: 1 };
  } },
  { id: 'long-doc', gen(r) {
    const paras = Array.from({ length: r.int(4, 9) }, () => r.pick(ARTICLES)(r));
    return { text: `Summarize the following report. Keep key numbers, note disagreements between sections, and end with open questions.\n\n${paras.join('\n\n')}`, difficulty: paras.length > 6 ? 3 : 2 };
  } },
  { id: 'meeting', gen(r) {
    return { text: `Summarize this meeting: decisions, risks, and next steps.\n${TRANSCRIPTS[0](r)}`, difficulty: 2 };
  } },
  { id: 'thread', gen(r) {
    const msgs = Array.from({ length: r.int(4, 10) }, () => `${person(r).split(' ')[0]}: ${r.pick(['I think we should postpone the migration', 'the benchmark shows 20% better p99', 'legal still has concerns about data residency', '+1 to shipping behind a flag', 'can we get numbers for EU traffic?', 'the vendor quote expires Friday'])}`);
    return { text: `Catch me up on this Slack thread in a few lines:\n${msgs.join('\n')}`, difficulty: 2 };
  } },
  { id: 'medical', gen(r) {
    return { text: `Summarize this consultation for the patient's chart (SOAP format):\n${TRANSCRIPTS[2](r)}`, system: r.pick([undefined, 'You are a clinical documentation assistant.']), difficulty: 3, stakes: 'high' };
  } },
  { id: 'legal', gen(r) {
    return { text: `Summarize the key obligations and risks in this contract in plain English:\n${r.pick(CONTRACT_CLAUSES)(r)}`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'paper', gen(r) {
    return { text: `Write an abstract-style summary (max 120 words) of this study:\n${ARTICLES[1](r)} ${ARTICLES[4](r)}`, difficulty: 2 };
  } },
  { id: 'support-call', gen(r) {
    return { text: `Summarize this support conversation for the CRM note:\n${TRANSCRIPTS[1](r)}`, difficulty: 1 };
  } },
  { id: 'book', gen(r) {
    return { text: `Summarize ${r.pick(['the plot of Pride and Prejudice', 'chapter 3 of the book I pasted earlier', 'the main arguments of Thinking, Fast and Slow', 'the key ideas of The Lean Startup'])} in ${r.int(3, 8)} bullet points.`, difficulty: 2 };
  } },
  { id: 'earnings-call', gen(r) {
    return { text: `Summarize this earnings call transcript excerpt for our investment committee, highlighting guidance changes:\n${ARTICLES[0](r)}`, difficulty: 2, stakes: 'high' };
  } },
  { id: 'es', lang: 'es', gen(r) {
    return { text: `Resume este texto en tres frases:\n${r.pick(ARTICLES)(r)}`, difficulty: 1 };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { text: `Fais-moi un résumé de cet article :\nLe conseil municipal a approuvé un plan visant à transformer plusieurs rues du centre-ville en zones piétonnes d'ici ${r.int(2026, 2030)}. Les commerçants sont partagés, les restaurateurs espèrent davantage de passage tandis que les livreurs craignent des trajets plus longs.`, difficulty: 1 };
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { text: `Fasse diesen Text kurz zusammen:\nDie Bundesregierung hat ein neues Förderprogramm für Wärmepumpen beschlossen. Haushalte können bis zu ${r.int(30, 70)} Prozent der Kosten erstattet bekommen. Kritiker bemängeln die komplizierte Antragstellung und lange Wartezeiten bei Handwerkern.`, difficulty: 1 };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: `Resuma esta reunião em tópicos:\n${TRANSCRIPTS[0](r)}`, difficulty: 2 };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return { text: `请用三句话总结下面的文章：\n${r.pick(['研究人员发布了一个开源大模型，在编程基准测试中的表现与两倍规模的模型相当。', '暴雨导致该地区多处发生洪涝，数万居民被转移安置。', '公司第三季度营收同比增长，但下调了全年业绩指引。'])}${r.pick(['作者认为这得益于数据筛选和更长的训练。', '气象部门预计周末还将有降雨。', '股价盘后下跌。'])}`, difficulty: 1 };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    const parts = r.sample(['市議会は中心部の道路を歩行者専用にする計画を承認した。', '飲食店は歓迎しているが、配送業者は反発している。', '新しいオープンソースの言語モデルが公開された。', 'コーディングのベンチマークで高い性能を示した。', '第3四半期の売上高は前年同期比で増加した。', '一方で通期の業績予想は下方修正された。', '大雨により数万人が避難した。', '週末にかけてさらに雨が降る見込みだ。'], r.int(2, 5));
    return { text: `${r.pick(['次の文章を要約してください。', '以下を3行でまとめてください。', 'この記事の要点を教えてください。'])}\n${parts.join('')}`, difficulty: 1 };
  } },
  { id: 'multi-doc', gen(r) {
    const docs = Array.from({ length: r.int(3, 6) }, (_, i) => `Document ${i + 1}:\n${r.pick(ARTICLES)(r)}`);
    return { text: `Synthesize these ${docs.length} documents into one brief. Where they disagree on numbers or conclusions, show both versions and explain which is more credible. Preserve every figure exactly.\n\n${docs.join('\n\n')}`, difficulty: 4 };
  } },
  { id: 'paste-then-ask', gen(r) {
    // The instruction comes after a long paste, as it often does in chat.
    const paras = Array.from({ length: r.int(3, 12) }, () => r.pick([...ARTICLES, ...TRANSCRIPTS])(r));
    return { text: `${paras.join('\n\n')}\n\n${r.pick(['Summarize the above.', 'tl;dr of all that?', 'Can you give me the key points of this?', 'Condense this into 5 bullets for my boss.', 'What are the main takeaways here?', 'Resume esto, por favor.', 'Fasse das bitte zusammen.'])}`, difficulty: paras.length > 8 ? 3 : 2 };
  } },
];

const TR_SOURCES = {
  en: ['The meeting has been moved to Thursday at 10am.', 'Please keep your receipt; you will need it for returns within 30 days.', 'Our new feature lets you share dashboards with external guests.', 'Take one tablet twice daily with food. Do not exceed the stated dose.', 'The Supplier shall indemnify the Buyer against all claims arising from defective goods.', 'Welcome aboard! Here is everything you need for your first week.'],
  es: ['¿Dónde está la estación de tren más cercana?', 'El pedido llegará entre el lunes y el miércoles.', 'Gracias por su paciencia, estamos revisando su caso.'],
  fr: ['Je voudrais réserver une table pour quatre personnes ce soir.', 'Le contrat prend effet à la date de signature.', 'Merci de confirmer votre présence avant vendredi.'],
  de: ['Die Lieferung verzögert sich um zwei Tage.', 'Bitte füllen Sie das Formular vollständig aus.', 'Der Mietvertrag kann mit einer Frist von drei Monaten gekündigt werden.'],
  pt: ['O prazo de entrega é de cinco dias úteis.', 'Obrigado pela sua compra! Volte sempre.'],
  zh: ['请在周五之前提交报告。', '这款产品支持无线充电。'],
  ja: ['ご注文ありがとうございます。', '会議は来週の月曜日に延期されました。'],
};
const LANG_NAMES = { en: 'English', es: 'Spanish', fr: 'French', de: 'German', pt: 'Portuguese', zh: 'Chinese', ja: 'Japanese', it: 'Italian', ko: 'Korean' };

export const translation = [
  { id: 'basic', gen(r) {
    const from = r.pick(Object.keys(TR_SOURCES));
    const src = r.pick(TR_SOURCES[from]);
    const to = r.pick(Object.keys(LANG_NAMES).filter((l) => l !== from));
    const hi = /dose|tablet|indemnify|Mietvertrag|contrat/.test(src);
    return { text: `${r.pick(['Translate to', 'Translate this into', 'How do you say this in', 'Can you translate into'])} ${LANG_NAMES[to]}: "${src}"`, system: genericSystem(r), difficulty: 1, stakes: hi ? 'high' : 'normal' };
  } },
  { id: 'word', gen(r) {
    return { text: `${r.pick(['what is', 'how do you say', 'translate'])} "${r.pick(['thank you', 'butterfly', 'invoice', 'good morning', 'I miss you', 'receipt', 'cheers'])}" in ${r.pick(Object.values(LANG_NAMES))}`, difficulty: 1 };
  } },
  { id: 'doc', gen(r) {
    const a = r.pick(ARTICLES)(r);
    return { text: `Translate the following ${r.pick(['article', 'press release', 'text'])} into ${r.pick(['Spanish', 'German', 'Japanese', 'Brazilian Portuguese', 'French'])}, keeping the tone formal:\n\n${a}`, difficulty: 2 };
  } },
  { id: 'legal', gen(r) {
    return { text: `Translate this contract clause into ${r.pick(['German', 'French', 'Spanish', 'Portuguese'])} for a legally binding version. Keep defined terms in quotes.\n${r.pick(CONTRACT_CLAUSES)(r)}`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'medical', gen(r) {
    return { text: `Translate these discharge instructions into ${r.pick(['Spanish', 'Chinese', 'Portuguese'])} for the patient: take ${r.pick(['amoxicillin 500mg three times a day for 7 days', 'ibuprofen 400mg every 8 hours as needed', 'warfarin 5mg daily and get INR checked on Monday'])}; return to the ER if you have a fever above 38.5°C.`, difficulty: 2, stakes: 'high' };
  } },
  { id: 'i18n', gen(r) {
    return { text: `Localize these UI strings to ${r.pick(['fr-FR', 'de-DE', 'ja-JP', 'pt-BR', 'es-MX'])}. Keep the placeholders like {count} untouched and return the same JSON keys.\n{"cart.empty": "Your cart is empty", "cart.items": "{count} items in cart", "checkout.cta": "Proceed to checkout", "errors.network": "Network error, please retry"}`, difficulty: 2 };
  } },
  { id: 'subtitle', gen(r) {
    return { text: `Translate these subtitles to ${r.pick(['Spanish', 'French', 'German'])}, keeping the SRT timing:\n1\n00:00:01,000 --> 00:00:03,500\nWhere were you last night?\n\n2\n00:00:03,600 --> 00:00:06,000\nI told you, I was working late.`, difficulty: 2 };
  } },
  { id: 'email', gen(r) {
    return { text: `Translate my reply to the supplier into ${r.pick(['Chinese', 'German', 'Italian', 'Japanese'])}, keep it polite: "Thanks for the quote. Could you lower the unit price to $${r.money(2, 30)} if we order ${r.int(500, 5000)} units?"`, difficulty: 1 };
  } },
  { id: 'es', lang: 'es', gen(r) {
    return { text: `Traduce al ${r.pick(['inglés', 'francés', 'alemán', 'portugués'])}: "${r.pick(TR_SOURCES.es)}"`, difficulty: 1 };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { text: `Traduis en ${r.pick(['anglais', 'espagnol', 'allemand'])} : « ${r.pick(TR_SOURCES.fr)} »`, difficulty: 1 };
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { text: `Übersetze bitte ins ${r.pick(['Englische', 'Spanische', 'Französische'])}: "${r.pick(TR_SOURCES.de)}"`, difficulty: 1, stakes: 'normal' };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: `Traduza para o ${r.pick(['inglês', 'espanhol', 'francês'])}: "${r.pick(TR_SOURCES.pt)}"`, difficulty: 1 };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return { text: `把这句话翻译成${r.pick(['英文', '日文', '法语'])}：“${r.pick(TR_SOURCES.zh)}”`, difficulty: 1 };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    return { text: `次の文を${r.pick(['英語', '中国語', 'スペイン語'])}に翻訳してください：「${r.pick(TR_SOURCES.ja)}」`, difficulty: 1 };
  } },
  { id: 'technical-long', gen(r) {
    const paras = Array.from({ length: r.int(3, 6) }, () => r.pick(ARTICLES)(r));
    return { text: `Translate this ${r.pick(['technical manual section', 'regulatory filing', 'clinical study summary'])} into ${r.pick(['German', 'Japanese', 'French', 'Spanish'])}. Use this glossary consistently: "throughput" → fixed term, "adverse event" → regulatory term, keep units and numbers unchanged, and flag any sentence that is ambiguous in the source.\n\n${paras.join('\n\n')}`, difficulty: 4, stakes: 'high' };
  } },
  { id: 'paste-then-ask', gen(r) {
    const paras = Array.from({ length: r.int(2, 8) }, () => r.pick(ARTICLES)(r));
    return { text: `${paras.join('\n\n')}\n\n${r.pick(['Translate all of the above into Spanish.', 'Now put this into German, formal register.', 'Can you translate this to French?', 'Please translate into Japanese.', 'Translate to Portuguese (Brazil).'])}`, difficulty: paras.length > 5 ? 3 : 2 };
  } },
];
