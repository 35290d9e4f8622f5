// Templates for roleplay/fiction, content writing, conversation, customer support and research reports.
import { clamp, person, email, COMPANIES, PRODUCTS, CITIES, FIRST_NAMES, genericSystem } from './lib.mjs';
import { TICKETS } from './texts.mjs';

const CHARACTERS = ['a grumpy dwarven blacksmith', 'Sherlock Holmes', 'a ship AI that has been alone for 300 years', 'a medieval innkeeper', 'a noir detective in 1940s Los Angeles', 'a cheerful barista who is secretly a vampire', 'the dungeon master of a D&D campaign', 'a pirate captain', 'a Victorian ghost', 'a space marine sergeant'];
const GENRES = ['fantasy', 'science fiction', 'cozy mystery', 'horror', 'romance', 'cyberpunk', 'historical fiction', 'fairy tale', 'thriller', 'magical realism'];

export const roleplay = [
  { id: 'rp-start', gen(r) {
    const c = r.pick(CHARACTERS);
    return { text: `${r.pick(["Let's roleplay.", 'Roleplay time!', "I want to do a roleplay."])} You are ${c}. I'm ${r.pick(['a traveler who just walked in from the storm', 'a young apprentice', 'a suspicious customer', 'your long-lost sibling'])}. Stay in character. *I push the door open* ${r.pick(['Hello?', 'Anyone here?', 'I need your help.'])}`, system: r.pick([undefined, `You are ${c}. Never break character.`]), difficulty: 2 };
  } },
  { id: 'rp-continue', gen(r) {
    const c = r.pick(CHARACTERS);
    return { text: `*${r.pick(['draws my sword', 'slides the envelope across the table', 'looks out at the burning city', 'whispers'])}* ${r.pick(['"You knew all along, didn\'t you?"', '"We leave at dawn."', '"Tell me what happened to the crew."', '"I\'m not afraid of you."'])}`, system: `You are ${c}. Write vivid replies of 1-3 paragraphs and stay in character.`, turns: r.int(3, 40), difficulty: 2 };
  } },
  { id: 'story', gen(r) {
    const g = r.pick(GENRES);
    const len = r.pick([[1, 'a 100-word'], [2, 'a short'], [3, 'a 2,000-word'], [4, 'a multi-chapter outline and the first chapter of a']]);
    const cons = r.sample(['told from the villain\'s point of view', 'with a twist ending', 'set in ' + r.pick(CITIES), 'without using the letter e', 'in second person', 'for a 7-year-old', 'with unreliable narration', 'where the dialogue carries the plot'], r.int(0, 3));
    return { text: `Write ${len[1]} ${g} story${cons.length ? ' ' + cons.join(', ') : ''}.`, system: genericSystem(r), difficulty: clamp(len[0] + (cons.length >= 2 ? 1 : 0)) };
  } },
  { id: 'continue-story', gen(r) {
    return { text: `Continue this story for another few paragraphs, keep the same voice:\n"${r.pick(['The lighthouse keeper had not seen a ship in eleven years when the lantern began to blink on its own.', 'Mara counted the coins twice. Still three short of the ferry fare, and the tide was turning.', 'Nobody in the village talked about the door in the hill, which is exactly why Tomas went looking for it.', 'The android paused at the crosswalk, unsure whether the rule applied to it.'])}"`, difficulty: 2 };
  } },
  { id: 'dnd', gen(r) {
    return { text: `You're the DM. Our party: ${r.sample(['a half-elf ranger', 'a tiefling warlock', 'a dwarf cleric', 'a human rogue', 'a gnome wizard'], 3).join(', ')}. We enter ${r.pick(['the sunken temple', 'a goblin-infested mine', 'the masquerade ball', 'the haunted library'])}. Describe the scene and ask what we do. Roll for initiative when combat starts.`, difficulty: 2 };
  } },
  { id: 'poem', gen(r) {
    return { text: `Write a ${r.pick(['sonnet', 'haiku', 'limerick', 'free-verse poem', 'ballad'])} about ${r.pick(['autumn in ' + r.pick(CITIES), 'a cat who hates Mondays', 'the sea at night', 'losing a friend', 'debugging at 3am', 'first love'])}.`, difficulty: 1 };
  } },
  { id: 'worldbuild', gen(r) {
    return { text: `Help me build a world for my novel: ${r.pick(['a desert empire ruled by guilds of water mages', 'a generation ship where the crew forgot it is a ship', 'a city where memories are currency'])}. I need its history, factions, magic/tech rules and three story hooks, all internally consistent.`, difficulty: 4 };
  } },
  { id: 'fanfic', gen(r) {
    return { text: `Write a fan fiction scene where ${r.pick(['Hermione and Spock', 'Gandalf and Darth Vader', 'Elizabeth Bennet and Batman'])} ${r.pick(['are stuck in an elevator', 'have to cook dinner together', 'argue about the rules of chess'])}. Keep it funny.`, difficulty: 2 };
  } },
  { id: 'es', lang: 'es', gen(r) {
    return { text: `${r.pick(['Escribe un cuento corto de', 'Inventa una historia de', 'Haz un relato de'])} ${r.pick(['terror', 'ciencia ficción', 'fantasía', 'amor'])} sobre ${r.pick(['un faro abandonado', 'un gato que habla', 'una ciudad bajo el mar'])}.`, difficulty: 2 };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { text: `${r.pick(["Joue le rôle d'", 'Incarne ', 'Tu es maintenant '])}${r.pick(['un aubergiste médiéval', 'un détective privé à Paris en 1920', 'un pirate', 'une reine elfe', 'un robot mélancolique', 'un maître du jeu de Donjons et Dragons'])}. ${r.pick(['Je suis un voyageur.', 'Je suis ton apprenti.', 'Je suis un client suspect.'])} *${r.pick(["J'entre et je m'assois au comptoir.", 'Je frappe à la porte.', 'Je sors une carte au trésor.'])}* ${r.pick(['Bonsoir !', 'Vous avez une chambre ?', "J'ai besoin de votre aide."])}`, difficulty: 2 };
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { text: `Schreib eine kurze ${r.pick(['Gruselgeschichte', 'Märchen', 'Science-Fiction-Geschichte'])} über ${r.pick(['einen verlassenen Bahnhof', 'einen sprechenden Fuchs', 'eine Zeitreise nach Berlin 1989'])}.`, difficulty: 2 };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: `${r.pick(['Vamos fazer um roleplay:', 'Quero jogar um RPG de texto:', 'Interprete um personagem:'])} você é ${r.pick(['um mago ancião', 'uma capitã de navio pirata', 'um detetive', 'um vampiro dono de um café', 'uma rainha guerreira', 'a IA de uma nave abandonada'])} e eu sou ${r.pick(['seu aprendiz', 'um viajante perdido', 'um espião inimigo'])}. ${r.pick(['Comece a cena.', 'Descreva o ambiente.', 'Não saia do personagem.'])}`, difficulty: 2 };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return { text: `写一个关于${r.pick(['月亮上的兔子', '穿越到唐朝的程序员', '会说话的猫'])}的短篇${r.pick(['科幻', '童话', '武侠'])}故事。`, difficulty: 2 };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    return { text: r.pick([`${r.pick(['魔法学校に入学した少女', '宇宙船のAI', '江戸時代の侍', '記憶をなくした探偵', '猫の王国の王様'])}を主人公にした${r.pick(['短い物語', 'ファンタジー小説の冒頭', '童話'])}を書いてください。`, `ロールプレイをしましょう。あなたは${r.pick(['酒場の店主', '海賊の船長', '魔王'])}です。私は${r.pick(['旅人', '勇者', '弟子'])}です。*扉を開ける* こんばんは。`]), difficulty: 2 };
  } },
  { id: 'poem-multi', lang: 'fr', gen(r) {
    return { text: `Écris un ${r.pick(['poème', 'sonnet', 'haïku', 'conte'])} sur ${r.pick(['la mer en automne', 'un chat paresseux', 'la pluie à Paris', 'un amour perdu', 'la forêt la nuit'])}.`, difficulty: 1 };
  } },
  { id: 'poem-multi-es', lang: 'es', gen(r) {
    return { text: `Escribe un ${r.pick(['poema', 'soneto', 'haiku', 'cuento corto'])} sobre ${r.pick(['el mar en invierno', 'mi perro', 'la luna', 'un amor imposible', 'la ciudad de noche'])}.`, difficulty: 1 };
  } },
];

const CONTENT_TYPES = [
  [2, 'a blog post'], [1, 'a tweet'], [2, 'a LinkedIn post'], [2, 'a product description'], [2, 'a newsletter intro'],
  [3, 'a 1,500-word SEO article'], [2, 'an email campaign'], [1, 'an Instagram caption'], [2, 'a press release'],
  [3, 'website copy for the homepage, about and pricing pages'], [2, 'a job description'], [2, 'a cold outreach email'],
];
const TOPICS = () => ['our new ' + 'feature that lets teams share dashboards', 'the launch of our eco-friendly ' + 'yoga mat', 'why small businesses should automate invoicing', '5 tips for remote onboarding', 'our Black Friday sale', 'the benefits of cold brew', 'a Senior Data Engineer opening', 'our Series A announcement', 'how to choose a standing desk'];

export const content_writing = [
  { id: 'write', gen(r) {
    const [d, type] = r.pick(CONTENT_TYPES);
    const topic = r.pick(TOPICS());
    const tone = r.pick(['', ' Tone: friendly and witty.', ' Keep it professional.', ' Target audience: CFOs.', ' Make it punchy, under 150 words.', ' Include a clear call to action.', ' Use our brand voice: confident, no jargon.']);
    return { text: `Write ${type} about ${topic}.${tone}`, system: r.pick([undefined, undefined, 'You are a senior copywriter for a B2B SaaS company.', 'You are a marketing assistant. Write in American English.']), difficulty: d };
  } },
  { id: 'product', gen(r) {
    const p = r.pick(PRODUCTS);
    return { text: `Product description for our ${p}. Key features: ${r.sample(['30-hour battery', 'water resistant', 'recycled materials', 'two-year warranty', 'app control', 'whisper-quiet', 'lightweight'], 3).join(', ')}. ${r.int(60, 200)} words, for an Amazon listing with 5 bullet points.`, difficulty: 2 };
  } },
  { id: 'rewrite', gen(r) {
    return { text: `Rewrite this to sound more ${r.pick(['professional', 'friendly', 'concise', 'persuasive'])}:\n"${r.pick(['hey so we kinda messed up the shipping this week and stuff will be late sorry', 'Our solution leverages synergistic paradigms to empower stakeholders across verticals.', 'I am writing to inform you that your request has been received and will be processed in due course.', 'we r launching a new app, its really good, download it'])}"`, difficulty: 1 };
  } },
  { id: 'email', gen(r) {
    return { text: `Draft an email to ${r.pick(['my landlord asking to fix the heating', 'a client explaining a two-week project delay', 'my team announcing the new on-call schedule', 'a candidate declining them politely', 'our customers about a price increase'])}. ${r.pick(['Keep it short.', 'Polite but firm.', 'Warm tone.', ''])}`.trim(), system: genericSystem(r), difficulty: 1 };
  } },
  { id: 'headline', gen(r) {
    return { text: `Give me ${r.int(5, 20)} headline options for ${r.pick(['a landing page about AI meeting notes', 'a blog post on budget travel in Japan', 'a webinar on Kubernetes cost savings', 'a charity run'])}.`, difficulty: 1 };
  } },
  { id: 'long-form', gen(r) {
    return { text: `Write a ${r.int(2, 4)},000-word pillar article on "${r.pick(['The complete guide to remote team rituals', 'How to price a SaaS product', 'Sustainable packaging for e-commerce'])}" with H2/H3 structure, an FAQ section, internal link suggestions and a meta description. Target keyword: "${r.pick(['remote team rituals', 'saas pricing', 'sustainable packaging'])}".`, difficulty: 3 };
  } },
  { id: 'speech', gen(r) {
    return { text: `Write a ${r.int(2, 10)}-minute ${r.pick(['wedding toast for my brother', 'keynote opening for a fintech conference', 'retirement speech for my manager', 'graduation speech'])}. ${r.pick(['Funny but heartfelt.', 'Inspiring.', ''])}`.trim(), difficulty: 2 };
  } },
  { id: 'regulated', gen(r) {
    return { text: `Write marketing copy for our ${r.pick(['new supplement that supports joint health', 'high-yield savings account at 4.5% APY', 'telehealth weight-loss program'])}. It must comply with ${r.pick(['FTC and FDA advertising rules', 'SEC marketing rules', 'FCA financial promotion rules'])}, so no unsubstantiated claims.`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'es', lang: 'es', gen(r) {
    return { text: `Escribe ${r.pick(['un post para Instagram', 'un artículo de blog', 'una descripción de producto', 'un correo de bienvenida'])} sobre ${r.pick(['nuestra nueva cafetería en Madrid', 'los beneficios del teletrabajo', 'nuestras ofertas de verano'])}.`, difficulty: 2 };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { text: `Rédige ${r.pick(['un article de blog', 'une newsletter', 'un post LinkedIn'])} sur ${r.pick(['le lancement de notre application', 'la rentrée scolaire', "l'importance de la cybersécurité pour les PME"])}.`, difficulty: 2 };
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { text: `Schreib ${r.pick(['einen Blogartikel', 'eine Produktbeschreibung', 'eine Stellenanzeige'])} über ${r.pick(['unseren neuen Onlineshop', 'eine Stelle als Backend-Entwickler (m/w/d)', 'nachhaltige Verpackungen'])}.`, difficulty: 2 };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: `Crie ${r.pick(['uma legenda para Instagram', 'um texto para o site', 'um e-mail marketing'])} para ${r.pick(['uma padaria artesanal', 'um curso online de inglês', 'uma clínica odontológica'])}.`, difficulty: 1 };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return { text: `帮我写一篇${r.pick(['小红书文案', '产品介绍', '公众号文章'])}，主题是${r.pick(['新开的咖啡店', '智能手表', '春季旅行'])}。`, difficulty: 2 };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    return { text: `${r.pick(['新商品のプレスリリース', 'ブログ記事', '採用ページの文章'])}を書いてください。テーマは${r.pick(['ワイヤレスイヤホン', 'リモートワーク', '地元のカフェ'])}です。`, difficulty: 2 };
  } },
  { id: 'whitepaper', gen(r) {
    return { text: `Write a ${r.int(8, 20)}-page whitepaper on ${r.pick(['zero-trust networking for mid-size banks', 'how our platform reduces cloud spend', 'AI governance for healthcare providers'])}: executive summary, problem framing, architecture, case studies, ROI model and a conclusion. Audience: CIOs. Keep claims defensible.`, difficulty: 4 };
  } },
];

export const conversational = [
  { id: 'greet', gen(r) {
    return { text: r.pick(['hi', 'hello!', 'hey there', 'good morning :)', 'yo', 'hi, how are you?', "what's up", 'hey, are you there?', 'Hello, nice to meet you']), system: genericSystem(r, 0.5), difficulty: 1 };
  } },
  { id: 'thanks', gen(r) {
    return { text: r.pick(['thanks!', 'thank you so much, that worked', 'perfect, thanks', 'ok cool', 'got it 👍', 'great, appreciate it', 'lol nice', 'no worries', 'that was helpful']), turns: r.int(2, 20), difficulty: 1 };
  } },
  { id: 'smalltalk', gen(r) {
    return { text: r.pick(["I'm bored, let's chat", 'do you like music?', "what's your favorite movie?", 'tell me something interesting', 'how was your day?', 'I just got back from a run, feeling great', 'do you ever get tired?', "I can't sleep", "what should we talk about?", 'are you a robot?']), difficulty: 1 };
  } },
  { id: 'vent', gen(r) {
    return { text: r.pick(["Ugh, today was rough. My boss criticized my presentation in front of everyone.", "I'm nervous about my exam tomorrow.", 'My cat is sick and I feel awful.', 'Just found out I got the job!! 🎉', "Honestly I just need to vent for a minute.", 'My friend forgot my birthday again.']), difficulty: 1 };
  } },
  { id: 'opinion', gen(r) {
    return { text: `${r.pick(['Do you think', 'Honestly, would you say', 'What do you think —'])} ${r.pick(['pineapple belongs on pizza', 'cats are better than dogs', 'it is weird to eat cereal for dinner', 'summer is the best season', 'Star Wars is better than Star Trek'])}?`, difficulty: 1 };
  } },
  { id: 'followup', gen(r) {
    return { text: r.pick(['haha fair enough', 'wait really?', 'ok and then what?', 'interesting, tell me more', 'hmm not sure I agree', 'sorry, I meant the other one', 'nevermind', 'can you say that again more simply?']), turns: r.int(3, 15), difficulty: 1 };
  } },
  { id: 'companion', gen(r) {
    return { text: r.pick(['Good night! Talk tomorrow.', 'I missed chatting with you', "You're funny", 'Can you just keep me company for a bit?', "I'm back!"]), system: r.pick([undefined, `You are ${r.pick(FIRST_NAMES)}, a warm and curious companion. Keep replies short and casual.`]), turns: r.int(1, 30), difficulty: 1 };
  } },
  { id: 'es', lang: 'es', gen(r) {
    return { text: r.pick(['hola, ¿qué tal?', 'gracias!!', 'buenas noches', '¿cómo estás hoy?', 'jaja qué bueno', 'estoy aburrido, charlemos']), difficulty: 1 };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { text: r.pick(['salut ça va ?', 'merci beaucoup !', 'bonne soirée', "je m'ennuie, on discute ?", 'haha trop bien']), difficulty: 1 };
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { text: r.pick(['hallo, wie geht es dir?', 'danke dir!', 'gute Nacht', 'mir ist langweilig', 'haha, nicht schlecht']), difficulty: 1 };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: r.pick(['oi, tudo bem?', 'valeu!', 'boa noite', 'kkkk adorei', 'bora conversar?']), difficulty: 1 };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return { text: r.pick(['你好', '谢谢你！', '晚安', '今天好累啊', '哈哈哈，真有意思']), difficulty: 1 };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    return { text: r.pick(['こんにちは', 'ありがとう！', 'おやすみなさい', '今日は疲れた〜', 'なるほどね']), difficulty: 1 };
  } },
  { id: 'longer', gen(r) {
    return { text: r.pick(["Honestly I've had such a weird week. Work was chaos, my sister visited, and I finally finished that puzzle I started in January. How's your week been?", "I just moved to a new city and don't know anyone yet. It's kind of lonely but also exciting. Anyway, just wanted to chat.", "We watched the sunset from the roof tonight and it was unreal. Anyway, what's new with you?"]), difficulty: 1 };
  } },
];

const SUPPORT_SYSTEMS = [
  (r) => `You are the customer support assistant for ${r.pick(COMPANIES)}. Be polite, follow the refund policy (30 days, unused items), and escalate billing disputes over $500.`,
  (r) => `You are Ava, a support agent for a telecom provider. Never promise compensation without checking the account.`,
  (r) => `Support bot for an online store. Policies: free returns within 30 days, shipping 3-5 business days, no refunds on digital goods.`,
  (r) => `You help customers of a banking app. Do not reveal account details unless the user is verified.`,
];

export const customer_support = [
  { id: 'ticket', gen(r) {
    const t = r.pick(TICKETS)(r);
    const hi = /charged|locked|500s|GDPR|VAT/.test(t);
    return { text: t, system: r.pick(SUPPORT_SYSTEMS)(r), difficulty: 2, stakes: hi ? 'high' : 'normal' };
  } },
  { id: 'where-order', gen(r) {
    return { text: `${r.pick(['Where is my order?', 'My package has not arrived yet.', 'Tracking says delivered but I got nothing.', 'I ordered the wrong size, can I exchange it?', 'How do I return an item?'])} Order #${r.int(100000, 999999)}.`, system: r.pick([SUPPORT_SYSTEMS[2](r), SUPPORT_SYSTEMS[0](r), undefined]), difficulty: 1 };
  } },
  { id: 'angry', gen(r) {
    return { text: `${r.pick(["This is the THIRD time I'm writing.", 'Absolutely unacceptable service.', "I've been on hold for an hour."])} ${r.pick(['My internet has been down for 4 days and nobody shows up.', 'You charged my card after I cancelled.', 'The replacement is broken too.'])} ${r.pick(['I want a refund now.', "Otherwise I'm disputing the charge with my bank.", 'Let me talk to a manager.'])}`, system: r.pick(SUPPORT_SYSTEMS)(r), difficulty: 2, stakes: 'high' };
  } },
  { id: 'draft-reply', gen(r) {
    const t = r.pick(TICKETS)(r);
    return { text: `Draft a reply to this customer as our support team. Apologize, explain next steps, and keep it under 120 words.\nCustomer wrote: "${t}"`, system: r.pick([undefined, SUPPORT_SYSTEMS[0](r)]), difficulty: 2, stakes: /charged|500s/.test(t) ? 'high' : 'normal' };
  } },
  { id: 'account', gen(r) {
    return { text: r.pick(['How do I change the email on my account?', 'I forgot my password and the reset email never arrives.', 'Can I downgrade my plan mid-cycle?', 'How do I cancel my subscription?', 'Someone logged into my account from another country!', 'Why was my card declined?']), system: r.pick(SUPPORT_SYSTEMS)(r), difficulty: 1, stakes: r.chance(0.3) ? 'high' : 'normal' };
  } },
  { id: 'bank', gen(r) {
    return { text: r.pick(['I see a transaction I did not make for $' + r.money(50, 2000) + '.', 'My transfer to my landlord has been pending for 3 days.', 'Please block my card, I lost my wallet.', 'Why was I charged an overdraft fee?']), system: SUPPORT_SYSTEMS[3](r), difficulty: 2, stakes: 'high' };
  } },
  { id: 'agent-support', gen(r) {
    return { text: `Customer ${email(r)} says the refund never arrived. Check and reply to them.`, system: 'You are a support agent with tools: lookup_order, lookup_refund, send_reply.', turn: 'agent', tool_result: `lookup_refund -> {"status":"${r.pick(['processed', 'pending', 'failed'])}","amount":${r.money(10, 300)},"date":"${r.date()}"}`, turns: r.int(2, 8), difficulty: 2, stakes: 'high' };
  } },
  { id: 'es', lang: 'es', gen(r) {
    return { text: r.pick(['Hola, mi pedido no ha llegado y ya pasaron dos semanas.', 'Me cobraron dos veces la suscripción, ¿me pueden devolver el dinero?', '¿Cómo cambio la dirección de envío?', 'No puedo entrar a mi cuenta.']), system: r.pick(SUPPORT_SYSTEMS)(r), difficulty: 1, stakes: r.chance(0.3) ? 'high' : 'normal' };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { text: r.pick(["Bonjour, ma commande est arrivée cassée, que dois-je faire ?", "J'ai été débité alors que j'ai résilié mon abonnement.", 'Comment modifier mon mot de passe ?']), system: r.pick(SUPPORT_SYSTEMS)(r), difficulty: 1 };
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { text: r.pick(['Meine Bestellung ist immer noch nicht da.', 'Ich möchte meinen Vertrag kündigen.', 'Warum wurde mir der Betrag doppelt abgebucht?']), system: r.pick(SUPPORT_SYSTEMS)(r), difficulty: 1 };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: r.pick(['Meu pedido ainda não chegou, podem verificar?', 'Quero cancelar minha assinatura.', 'Fui cobrado duas vezes no cartão.']), system: r.pick(SUPPORT_SYSTEMS)(r), difficulty: 1 };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return { text: r.pick(['我的快递三天了还没到，怎么回事？', '我想申请退款。', '账号登录不上去了。']), system: r.pick(SUPPORT_SYSTEMS)(r), difficulty: 1 };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    return { text: r.pick(['注文した商品がまだ届きません。', '返品の方法を教えてください。', '二重に請求されています。']), system: r.pick(SUPPORT_SYSTEMS)(r), difficulty: 1 };
  } },
  { id: 'complex', gen(r) {
    return { text: `Customer writes: "I moved from the Team to the Business plan mid-cycle, got charged for both, my invoices now show the wrong company VAT ID, and two of my users lost access to shared folders after the switch. I need corrected invoices for our audit by Friday." Handle all issues in one reply and list what you'll escalate internally.`, system: r.pick([undefined, 'You are a tier-2 support specialist for a B2B SaaS product.']), difficulty: 3, stakes: 'high' };
  } },
  { id: 'plain-multi', lang: 'es', gen(r) {
    // Customers rarely come with a system prompt attached when the app forwards them raw.
    return { text: r.pick(['Mi pedido no ha llegado y ya pasaron tres semanas, quiero un reembolso.', 'Me llegó el producto roto, ¿cómo hago la devolución?', 'No me deja pagar con mi tarjeta en su web.', 'Quiero cancelar mi suscripción y que no me cobren más.', 'El repartidor dejó el paquete en otra dirección.', '¿Cuándo me devuelven el dinero del pedido cancelado?']), system: r.chance(0.3) ? r.pick(SUPPORT_SYSTEMS)(r) : undefined, difficulty: 1, stakes: r.chance(0.3) ? 'high' : 'normal' };
  } },
  { id: 'plain-multi-fr', lang: 'fr', gen(r) {
    return { text: r.pick(["Ma commande n'est jamais arrivée, je veux être remboursé.", 'Le colis est arrivé abîmé, comment faire un retour ?', "Je n'arrive pas à payer sur votre site.", 'Annulez mon abonnement, je ne veux plus être prélevé.', 'Quand vais-je recevoir mon remboursement ?']), system: r.chance(0.3) ? r.pick(SUPPORT_SYSTEMS)(r) : undefined, difficulty: 1 };
  } },
  { id: 'plain-multi-pt', lang: 'pt', gen(r) {
    return { text: r.pick(['Meu pedido não chegou até hoje, quero meu dinheiro de volta.', 'O produto veio com defeito, como faço a troca?', 'Não consigo acessar minha conta.', 'Cancelem minha assinatura, por favor.', 'Fui cobrado duas vezes, podem estornar?']), system: r.chance(0.3) ? r.pick(SUPPORT_SYSTEMS)(r) : undefined, difficulty: 1 };
  } },
  { id: 'plain-multi-de', lang: 'de', gen(r) {
    return { text: r.pick(['Meine Bestellung ist nie angekommen, ich möchte mein Geld zurück.', 'Das Paket kam beschädigt an, wie kann ich es zurückschicken?', 'Ich kann mich nicht mehr einloggen.', 'Bitte kündigen Sie mein Abo zum Monatsende.', 'Wann bekomme ich meine Erstattung?']), system: r.chance(0.3) ? r.pick(SUPPORT_SYSTEMS)(r) : undefined, difficulty: 1 };
  } },
];

const REPORT_TOPICS = [
  [3, 'the European market for heat pumps'], [4, 'the state of quantum error correction research'], [3, 'competitors in the US meal-kit industry'],
  [4, 'the evidence on GLP-1 drugs for weight loss, including long-term safety'], [3, 'adoption of open-source LLMs in enterprises'],
  [5, 'a systematic review of interventions that reduce hospital readmissions, with effect sizes and study quality'],
  [4, 'the impact of remote work on commercial real estate valuations'], [3, 'battery recycling startups and their business models'],
  [4, 'AI regulation across the EU, US and China and what it means for our product'],
];

export const research_report = [
  { id: 'report', gen(r) {
    const [d, t] = r.pick(REPORT_TOPICS);
    const reqs = r.sample(['an executive summary', 'a methodology section', 'citations for every claim', 'market sizing with assumptions', 'a comparison table', 'risks and open questions', 'recommendations'], r.int(2, 5));
    return { text: `Write a research report on ${t}. Include ${reqs.join(', ')}.`, system: r.pick([undefined, 'You are a senior research analyst. Be rigorous and cite sources.']), difficulty: clamp(d + (reqs.length >= 4 ? 1 : 0)), stakes: t.includes('GLP-1') || t.includes('readmissions') || t.includes('regulation') ? 'high' : 'normal' };
  } },
  { id: 'lit-review', gen(r) {
    return { text: `Do a literature review on ${r.pick(['retrieval-augmented generation', 'microplastics in drinking water', 'the four-day work week', 'CRISPR off-target effects', 'LLM hallucination detection'])}: key papers, consensus, disagreements and gaps. ${r.pick(['Aim for 2,000 words.', 'Group by theme.', ''])}`.trim(), difficulty: 4 };
  } },
  { id: 'compare', gen(r) {
    return { text: `Prepare an in-depth comparison report of ${r.pick(['Snowflake, BigQuery and Databricks for a 50TB workload', 'three CRM vendors for a 200-person sales team', 'solar vs wind investments in Southern Europe', 'the top five vector databases'])} covering cost, performance, risks and a recommendation with rationale.`, difficulty: 4, stakes: r.chance(0.3) ? 'high' : 'normal' };
  } },
  { id: 'due-diligence', gen(r) {
    return { text: `Put together a due diligence report on ${r.pick(COMPANIES)} for a potential acquisition: business model, financial health, customers, legal exposure, and red flags.`, difficulty: 4, stakes: 'high' };
  } },
  { id: 'agent-research', gen(r) {
    return { text: `${r.pick(["Using what you've gathered so far,", 'That is enough sources.', 'Research phase is done.', 'With these notes,'])} ${r.pick(['write the final research report with sections, findings and a reference list.', 'compile the report: executive summary, methodology, findings by theme, limitations, references.', 'draft the full analysis with citations in APA style and a section on conflicting evidence.', 'produce the long-form report and a one-page brief for leadership.'])}`, system: r.pick(['You are a research agent. Tools available: web_search(query), fetch_url(url), take_notes(text).', undefined]), turn: 'agent', tool_result: `take_notes -> ${r.int(12, 60)} notes from ${r.int(5, 25)} sources`, turns: r.int(10, 40), difficulty: 4 };
  } },
  { id: 'brief', gen(r) {
    return { text: `I need a 2-page briefing paper on ${r.pick(['the economics of desalination', 'why housing costs rose in ' + r.pick(CITIES), 'supply chain risks for semiconductors', 'the history and outlook of nuclear fusion funding'])} for policymakers, with data and sources.`, difficulty: 3 };
  } },
  { id: 'es', lang: 'es', gen(r) {
    return { text: `Elabora un informe de investigación sobre ${r.pick(['el mercado de vehículos eléctricos en Latinoamérica', 'el impacto del turismo en Barcelona', 'la energía solar en España', 'la adopción de pagos digitales en México', 'la escasez de agua en el norte de Chile', 'el teletrabajo en empresas medianas'])}, ${r.pick(['con fuentes, datos y conclusiones.', 'incluyendo resumen ejecutivo y recomendaciones.', 'comparando al menos cinco estudios.'])}`, difficulty: 4, stakes: r.chance(0.2) ? 'high' : 'normal' };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { text: `Rédige un rapport d'analyse approfondi sur ${r.pick(["l'état de la recherche sur les batteries solides", 'le marché français de la rénovation énergétique', "l'adoption de l'IA dans les PME", 'la filière hydrogène en Europe', 'les déserts médicaux en France', "l'économie du vin face au climat"])}, ${r.pick(['avec sources et recommandations.', 'avec une synthèse pour la direction.', 'en comparant les principales études.'])}`, difficulty: 4, stakes: r.chance(0.2) ? 'high' : 'normal' };
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { text: `Erstelle einen Forschungsbericht zu ${r.pick(['Wasserstoff als Energieträger in Deutschland', 'dem Fachkräftemangel in der Pflege', 'Open-Source-Sprachmodellen', 'der Zukunft des Einzelhandels in Innenstädten', 'Wärmepumpen im Altbau', 'der Digitalisierung der Verwaltung'])}, ${r.pick(['mit Quellenangaben und Handlungsempfehlungen.', 'mit Management-Zusammenfassung und Risikoanalyse.', 'mit Vergleich der wichtigsten Studien.'])}`, difficulty: 4, stakes: r.chance(0.2) ? 'high' : 'normal' };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: `Faça um relatório de pesquisa sobre ${r.pick(['o mercado de fintechs no Brasil', 'energia eólica no Nordeste', 'o uso de IA na educação', 'o agronegócio e o desmatamento', 'a mobilidade urbana em São Paulo', 'o mercado de carros elétricos em Portugal'])}, ${r.pick(['com dados, fontes e conclusões.', 'com resumo executivo e recomendações.', 'comparando os principais estudos.'])}`, difficulty: 4, stakes: r.chance(0.2) ? 'high' : 'normal' };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return { text: `请撰写一份关于${r.pick(['中国新能源汽车市场', '大语言模型在医疗中的应用', '半导体产业链', '跨境电商的发展趋势', '人口老龄化对养老产业的影响', '光伏行业的产能过剩'])}${r.pick(['的研究报告，包括数据、引用来源和结论。', '的深度分析报告，附执行摘要和建议。', '的行业研究报告，比较主要研究结论。'])}`, difficulty: 4, stakes: r.chance(0.2) ? 'high' : 'normal' };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    return { text: `${r.pick(['日本の再生可能エネルギー市場', '生成AIの企業導入状況', '高齢化社会と介護ロボット', '半導体サプライチェーンのリスク', '地方の人口減少と観光', 'キャッシュレス決済の普及'])}${r.pick(['についての調査レポートを作成してください。出典を明記してください。', 'に関する詳細な分析レポートを、要約と提言付きで書いてください。', 'について主要な研究を比較した報告書を作ってください。'])}`, difficulty: 4, stakes: r.chance(0.2) ? 'high' : 'normal' };
  } },
];
