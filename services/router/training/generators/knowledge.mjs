// Templates for factual Q&A, math, finance/trading and everything else.
import { clamp, dpick, person, COMPANIES, CITIES, FIRST_NAMES, genericSystem } from './lib.mjs';

const FACT_QS = [
  [1, 'What is the capital of Australia?'], [1, 'Who wrote One Hundred Years of Solitude?'], [1, 'How many bones are in the human body?'],
  [2, 'How does photosynthesis work?'], [2, 'Why is the sky blue?'], [2, 'What caused the fall of the Western Roman Empire?'],
  [2, 'What is the difference between a virus and a bacterium?'], [2, 'Explain how vaccines train the immune system.'],
  [2, 'What is the difference between TCP and UDP?'], [2, 'How do noise-cancelling headphones work?'],
  [3, 'Explain how CRISPR-Cas9 edits genes and what its current limitations are.'], [3, 'Why did the 2008 financial crisis happen?'],
  [3, 'How does a transformer neural network process a sentence?'], [3, 'What are the main interpretations of quantum mechanics and how do they differ?'],
  [4, 'Explain the current scientific understanding of dark matter, including the main candidate particles and why direct detection has failed so far.'],
  [1, 'When did World War II end?'], [1, 'What is the boiling point of water at sea level in Fahrenheit?'], [2, 'How do tides work?'],
  [2, 'What does a central bank do?'], [1, 'Who painted the Mona Lisa?'], [2, 'What is the difference between weather and climate?'],
];
const HIGH_QS = [
  [2, 'Can I take ibuprofen together with my blood thinner warfarin?'], [2, 'What are the early warning signs of a stroke?'],
  [3, 'My landlord kept my deposit without explanation. What are my rights in California?'], [2, 'Is it legal to record a phone call without consent in Germany?'],
  [2, 'What dose of acetaminophen is safe for a 20 kg child?'], [3, 'How is a trust different from a will for passing on a house?'],
];

export const qa_knowledge = [
  { id: 'fact', gen(r) {
    const [d, q] = r.pick(FACT_QS);
    return { text: r.chance(0.2) ? q.toLowerCase().replace(/\?$/, '') : q, system: genericSystem(r), difficulty: d };
  } },
  { id: 'high', gen(r) {
    const [d, q] = r.pick(HIGH_QS);
    return { text: q, system: genericSystem(r), difficulty: d, stakes: 'high' };
  } },
  { id: 'explain-like', gen(r) {
    const [d, q] = r.pick(FACT_QS.filter(([dd]) => dd >= 2));
    return { text: `${r.pick(["Explain like I'm five:", 'In simple terms,', 'For a high-school student:', 'Briefly,'])} ${q.charAt(0).toLowerCase() + q.slice(1)}`, difficulty: Math.max(1, d - 1) };
  } },
  { id: 'compare', gen(r) {
    const pairs = ['a crocodile and an alligator', 'baking soda and baking powder', 'RAM and storage', 'a psychologist and a psychiatrist', 'socialism and communism', 'an ETF and a mutual fund', 'Catholic and Orthodox Christianity', 'mitosis and meiosis'];
    return { text: `What's the difference between ${r.pick(pairs)}?`, difficulty: 2, stakes: 'normal' };
  } },
  { id: 'history', gen(r) {
    return { text: `${r.pick(['Tell me about', 'What was', 'Give me a short history of'])} ${r.pick(['the Meiji Restoration', 'the Silk Road', 'the French Revolution', 'the Apollo program', 'the Byzantine Empire', 'the Berlin Wall', 'the printing press'])}${r.pick(['.', '?', ' and why it mattered.'])}`, difficulty: 2 };
  } },
  { id: 'how-works', gen(r) {
    return { text: `How does ${r.pick(['GPS', 'a nuclear reactor', 'the stock exchange', 'inflation', 'an electric car battery', 'the immune system', 'public-key cryptography', 'a refrigerator', 'Wi-Fi'])} work?`, difficulty: 2 };
  } },
  { id: 'multi-turn', gen(r) {
    return { text: r.pick(['and why is that?', 'so what happened after that?', 'who discovered it?', 'is that still true today?', 'how big is it compared to the moon?']), turns: r.int(3, 10), difficulty: 1 };
  } },
  { id: 'es', lang: 'es', gen(r) {
    return dpick(r, [[1, '¿Cuál es la capital de Canadá?'], [2, '¿Por qué el cielo es azul?'], [1, '¿Quién escribió Don Quijote?'], [2, '¿Cómo funciona la fotosíntesis?'], [2, '¿Qué diferencia hay entre un virus y una bacteria?'], [1, '¿En qué año llegó el hombre a la Luna?'], [3, '¿Por qué cayó el Imperio romano de Occidente? Explica las causas económicas y militares.'], [2, '¿Cómo funciona la inflación?']]);
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return dpick(r, [[1, 'Quelle est la capitale du Japon ?'], [2, 'Comment fonctionne un vaccin ?'], [1, 'Qui a peint Guernica ?'], [2, 'Pourquoi la mer est-elle salée ?'], [2, "Qu'est-ce que l'inflation ?"], [1, 'Combien y a-t-il de planètes dans le système solaire ?'], [3, 'Quelles sont les causes profondes de la Révolution française ?'], [2, 'Comment fonctionne le GPS ?']]);
  } },
  { id: 'de', lang: 'de', gen(r) {
    return dpick(r, [[1, 'Wie hoch ist die Zugspitze?'], [2, 'Warum fiel die Berliner Mauer?'], [2, 'Wie funktioniert ein Elektromotor?'], [1, 'Wer hat die Relativitätstheorie entwickelt?'], [2, 'Was ist der Unterschied zwischen Wetter und Klima?'], [1, 'Wann wurde die Bundesrepublik gegründet?'], [3, 'Erkläre die Kopenhagener Deutung der Quantenmechanik und ihre Kritik.'], [2, 'Wie entstehen Gezeiten?']]);
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return dpick(r, [[1, 'Qual é o maior rio do mundo?'], [2, 'Como funciona o sistema imunológico?'], [1, 'Quem descobriu o Brasil?'], [2, 'Por que as folhas mudam de cor no outono?'], [1, 'Qual é a capital da Austrália?'], [2, 'Como funciona uma usina hidrelétrica?'], [3, 'Quais foram as causas e consequências da crise de 1929?']]);
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return dpick(r, [[1, '中国最长的河流是哪条？'], [2, '为什么天空是蓝色的？'], [2, '光合作用是怎么进行的？'], [1, '秦始皇统一六国是哪一年？'], [2, '疫苗是怎么起作用的？'], [1, '珠穆朗玛峰有多高？'], [3, '请解释量子纠缠的原理以及它为什么不能用来超光速通信。']]);
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    return dpick(r, [[1, '富士山の高さはどれくらいですか？'], [2, '明治維新とは何ですか？'], [2, 'ワクチンはどうやって効くのですか？'], [1, '日本で一番長い川は？'], [2, '地震はなぜ起こるのですか？'], [1, '東京タワーは何年に完成しましたか？'], [3, '相対性理論と量子力学が統一できない理由を説明してください。']]);
  } },
  { id: 'slot-facts', gen(r) {
    const country = r.pick(['Peru', 'Kenya', 'Canada', 'Vietnam', 'Norway', 'Chile', 'Egypt', 'Portugal', 'Mongolia', 'New Zealand', 'Morocco', 'Finland', 'Colombia', 'Thailand']);
    return dpick(r, [
      [1, `What is the capital of ${country}?`], [1, `What currency does ${country} use?`], [1, `What language do people speak in ${country}?`],
      [1, `How many people live in ${country}?`], [2, `What is ${country} best known for historically?`], [2, `What kind of government does ${country} have?`],
      [1, `Who wrote ${r.pick(['Hamlet', 'War and Peace', 'The Odyssey', 'Beloved', 'The Little Prince', 'Things Fall Apart', 'Norwegian Wood'])}?`],
      [1, `When did ${r.pick(['the Berlin Wall fall', 'the first moon landing happen', 'the Titanic sink', 'India become independent', 'the printing press appear'])}?`],
      [1, `How tall is ${r.pick(['Mount Everest', 'the Eiffel Tower', 'the Burj Khalifa', 'Kilimanjaro'])}?`],
      [1, `Who discovered ${r.pick(['penicillin', 'gravity', 'radium', 'the electron', 'insulin'])}?`],
      [2, `Why is ${r.pick(['the ocean salty', 'Mars red', 'ice slippery', 'the Dead Sea so buoyant', 'the Amazon called the lungs of the planet'])}?`],
      [1, `What does ${r.pick(['DNA', 'NASA', 'GDP', 'UNESCO', 'HTTP', 'NATO'])} stand for?`],
    ]);
  } },
];

export const math = [
  { id: 'arith', gen(r) {
    const a = r.int(12, 999), b = r.int(2, 99);
    return { text: r.pick([`What is ${a} * ${b}?`, `${a} divided by ${b}?`, `what's ${r.int(5, 40)}% of ${a}`, `Compute ${a}^2 - ${b}^2.`, `Is ${a * 2 + 1} prime?`]), difficulty: 1 };
  } },
  { id: 'algebra', gen(r) {
    const a = r.int(2, 9), b = r.int(1, 20), c = r.int(21, 90);
    return { text: r.pick([`Solve for x: ${a}x + ${b} = ${c}`, `Solve the system: ${a}x + y = ${b}, x - ${a}y = ${c}`, `Find the roots of x^2 - ${a + b}x + ${a * b} = 0`, `Simplify (x^2 - ${a * a}) / (x - ${a})`]), difficulty: 2 };
  } },
  { id: 'calculus', gen(r) {
    return { text: r.pick(['Find the derivative of f(x) = x^3 sin(x).', 'Evaluate the integral of x e^{2x} dx.', 'Compute the limit of (1 + 1/n)^n as n → ∞ and explain why.', 'Find the Taylor series of ln(1+x) around 0 and its radius of convergence.', 'Solve the differential equation y\'\' + 4y = sin(2x).', 'Compute the volume of the solid obtained by rotating y = sqrt(x), 0 ≤ x ≤ 4, around the x-axis.']), difficulty: 3 };
  } },
  { id: 'prob', gen(r) {
    return dpick(r, [[2, `If I roll two dice, what's the probability the sum is ${r.int(2, 12)}?`], [3, `A test is ${r.int(90, 99)}% sensitive and ${r.int(90, 99)}% specific for a disease with 1% prevalence. If I test positive, what's the chance I have it?`], [3, 'In a room of 30 people, what is the probability two share a birthday?'], [2, `I draw ${r.int(2, 5)} cards without replacement. What's the probability they're all hearts?`], [3, 'Expected number of coin flips to get two heads in a row?'], [1, 'What are the odds of flipping heads?']]);
  } },
  { id: 'proof', gen(r) {
    const [d, p] = r.pick([[4, 'Prove that there are infinitely many primes.'], [4, 'Prove that √2 is irrational.'], [5, 'Prove that every finite group of order p^2 is abelian.'], [5, 'Prove the Cauchy–Schwarz inequality for inner product spaces and characterize the equality case.'], [4, 'Prove by induction that 1 + 2 + ... + n = n(n+1)/2.'], [5, 'Show that a continuous function on a compact metric space is uniformly continuous.'], [5, 'Prove that the halting problem is undecidable.'], [5, 'Prove that every planar graph is 5-colorable.']]);
    return { text: `${p}${r.pick(['', ' Give a rigorous proof.', ' Be careful with every step.'])}`, system: genericSystem(r), difficulty: d };
  } },
  { id: 'word-problem', gen(r) {
    const s = r.int(40, 120), t = r.int(2, 6);
    return { text: r.pick([`A train leaves at ${s} km/h and another leaves ${t} hours later at ${s + 30} km/h on the same track. When does the second catch up?`, `A recipe needs ${t} eggs for ${s % 10 + 2} people. How many for ${s} people?`, `If a shirt costs $${s} after a ${t * 5}% discount, what was the original price?`, `Pipe A fills a tank in ${t} hours, pipe B in ${t + 3}. How long together?`]), difficulty: 2 };
  } },
  { id: 'linear-algebra', gen(r) {
    return { text: r.pick([`Find the eigenvalues and eigenvectors of [[${r.int(1, 5)}, ${r.int(0, 3)}], [${r.int(0, 3)}, ${r.int(1, 5)}]].`, 'Compute the determinant of a 3x3 matrix [[2,0,1],[1,3,2],[1,1,1]].', 'Explain why a symmetric real matrix is diagonalizable by an orthogonal matrix.', 'Find the rank and null space of [[1,2,3],[2,4,6],[1,0,1]].']), difficulty: 3 };
  } },
  { id: 'competition', gen(r) {
    return { text: r.pick(['Find all functions f: ℝ → ℝ such that f(x + y) = f(x) + f(y) + xy for all real x, y.', 'How many positive integers n ≤ 1000 make n^2 + 1 divisible by 5?', 'Let a, b, c > 0 with a + b + c = 3. Prove that a^2/b + b^2/c + c^2/a ≥ 3.', 'Determine the number of lattice paths from (0,0) to (10,10) that never go above the diagonal.']), difficulty: 5 };
  } },
  { id: 'stats', gen(r) {
    const xs = Array.from({ length: r.int(5, 10) }, () => r.int(1, 100));
    return dpick(r, [[2, `Compute the mean, median and standard deviation of: ${xs.join(', ')}`], [3, `Is the difference between groups significant? Group A: ${xs.slice(0, 4).join(', ')}; Group B: ${xs.slice(1, 5).map((x) => x + 7).join(', ')}. Use a t-test.`], [2, `Fit a least-squares line through the points ${xs.slice(0, 4).map((x, i) => `(${i + 1}, ${x})`).join(', ')}.`]]);
  } },
  { id: 'latex', gen(r) {
    return { text: `Evaluate $\\sum_{k=1}^{\\infty} \\frac{1}{k^2}$ and explain the method.`, difficulty: 4 };
  } },
  { id: 'es', lang: 'es', gen(r) {
    return dpick(r, [[2, `Resuelve: ${r.int(2, 9)}x - ${r.int(1, 9)} = ${r.int(10, 50)}`], [3, '¿Cuál es la derivada de ln(x^2 + 1)? Explica la regla de la cadena.'], [4, 'Demuestra que la suma de dos números pares es par y que el producto de dos impares es impar.'], [1, `¿Cuánto es el ${r.int(5, 50)}% de ${r.int(100, 900)}?`], [3, 'Calcula la integral de x·cos(x).'], [5, 'Demuestra que todo grupo de orden primo es cíclico.']]);
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return dpick(r, [[3, 'Calcule la dérivée de f(x) = e^x cos(x).'], [4, 'Démontre que √3 est irrationnel.'], [2, `Résous l'équation x² - ${r.int(5, 9)}x + 6 = 0.`], [2, "Quelle est la probabilité d'obtenir deux six avec deux dés ?"], [1, `Combien font ${r.int(12, 99)} × ${r.int(3, 9)} ?`], [5, 'Démontre le théorème des valeurs intermédiaires à partir de la propriété de la borne supérieure.']]);
  } },
  { id: 'de', lang: 'de', gen(r) {
    return dpick(r, [[3, 'Berechne das Integral von x² · e^x.'], [4, 'Beweise, dass es unendlich viele Primzahlen gibt.'], [2, `Löse das Gleichungssystem: 2x + y = ${r.int(3, 20)}, x - y = ${r.int(1, 5)}.`], [1, `Was ist ${r.int(10, 30)} Prozent von ${r.int(100, 999)}?`], [3, 'Bestimme die Eigenwerte der Matrix [[2, 1], [1, 2]].'], [5, 'Beweise, dass jede stetige Funktion auf einem kompakten Intervall gleichmäßig stetig ist.']]);
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return dpick(r, [[1, `Quanto é ${r.int(10, 99)} vezes ${r.int(10, 99)}?`], [3, 'Calcule a integral de sen(x)cos(x).'], [3, 'Prove que a soma dos ângulos internos de um triângulo é 180 graus.'], [2, `Resolva a equação 3x + ${r.int(1, 9)} = ${r.int(20, 40)}.`], [4, 'Prove por indução que 2^n > n² para todo n ≥ 5.']]);
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return dpick(r, [[2, `解方程：${r.int(2, 9)}x + ${r.int(1, 9)} = ${r.int(20, 60)}`], [3, '求函数 f(x)=x³-3x 的极值。'], [4, '证明根号2是无理数。'], [2, '掷两枚骰子，点数和为7的概率是多少？'], [1, `${r.int(10, 99)}乘以${r.int(10, 99)}等于多少？`], [5, '证明：有限域的乘法群是循环群。']]);
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    const a = r.int(2, 9), b = r.int(2, 9);
    return dpick(r, [[2, `x² - ${a + b}x + ${a * b} = 0 を解いてください。`], [1, `1から${r.int(50, 1000)}までの和を求めてください。`], [4, '素数が無限に存在することを証明してください。'], [2, `サイコロを${r.int(2, 4)}回振って、すべて偶数になる確率は？`], [3, 'f(x) = x³ - 3x の極値を求めてください。'], [4, '√2が無理数であることを証明してください。'], [2, `${a}x + ${b}y = ${a * b}、x - y = 1 の連立方程式を解いて。`]]);
  } },
  { id: 'multi-slots', lang: 'pt', gen(r) {
    const a = r.int(2, 30), b = r.int(2, 30);
    return dpick(r, [[1, `Quanto dá ${a} mais ${b} vezes ${r.int(2, 9)}?`], [2, `Resolva a equação ${a}x - ${b} = ${a + b}.`], [3, `Calcule a derivada de f(x) = ${a}x³ + sen(x).`], [2, `Qual é a área de um círculo de raio ${a}?`], [2, `Quanto é ${a}% de ${b * 100}?`], [3, `Qual a probabilidade de tirar ${r.int(2, 3)} caras em ${r.int(4, 6)} lançamentos de moeda?`], [4, 'Demonstre que a soma dos n primeiros números ímpares é n².']]);
  } },
  { id: 'multi-slots-es', lang: 'es', gen(r) {
    const a = r.int(2, 30), b = r.int(2, 30);
    return dpick(r, [[1, `¿Cuál es la raíz cuadrada de ${a * a}?`], [1, `¿Cuánto es ${a} por ${b}?`], [2, `Resuelve el sistema: x + y = ${a + b}, x - y = ${a - b}.`], [3, `Calcula la integral de ${a}x·e^x.`], [2, `¿Cuál es el perímetro de un rectángulo de ${a} por ${b}?`], [3, `¿Qué probabilidad hay de sacar al menos un seis en ${r.int(2, 5)} tiradas?`], [4, 'Demuestra por inducción que 3^n > n² para n ≥ 2.']]);
  } },
  { id: 'multi-slots-de', lang: 'de', gen(r) {
    const a = r.int(2, 30), b = r.int(2, 30);
    return dpick(r, [[1, `Was ist die Wurzel aus ${a * a}?`], [1, `Wie viel ist ${a} mal ${b}?`], [2, `Löse die Gleichung ${a}x + ${b} = ${a * 3 + b}.`], [3, `Leite f(x) = x^${r.int(2, 5)} · ln(x) ab.`], [3, `Wie groß ist die Wahrscheinlichkeit, mit zwei Würfeln eine ${r.int(2, 12)} zu würfeln?`], [4, 'Beweise, dass √5 irrational ist.']]);
  } },
];

const TICKERS = ['AAPL', 'NVDA', 'TSLA', 'MSFT', 'AMZN', 'SPY', 'QQQ', 'BTC', 'ETH', 'EUR/USD', 'GLD', 'TLT'];

export const finance_trading = [
  { id: 'strategy', gen(r) {
    const s = r.pick(['a moving-average crossover strategy on ' + r.pick(TICKERS), 'a mean-reversion pairs trade between KO and PEP', 'a momentum strategy on the S&P 500 sectors', 'a covered-call strategy on my ' + r.pick(TICKERS) + ' shares', 'a grid trading bot for ' + r.pick(['BTC', 'ETH'])]);
    return { text: `Help me design ${s}. Entry/exit rules, position sizing and risk management.`, system: genericSystem(r), difficulty: 3, stakes: 'high' };
  } },
  { id: 'options', gen(r) {
    const k = r.int(90, 250);
    const q = dpick(r, [[4, `Price a European call with S=${k}, K=${k + r.int(-10, 20)}, T=0.5, r=4%, σ=${r.int(15, 60)}% using Black-Scholes and give the Greeks.`], [3, `I'm short a ${k} put on ${r.pick(TICKERS)} expiring Friday and the stock is at ${k - 3}. Roll or take assignment?`], [2, `Explain an iron condor and when it makes money.`], [3, `What happens to my long straddle if implied volatility drops 10 points after earnings?`]]);
    return { ...q, stakes: 'high' };
  } },
  { id: 'portfolio', gen(r) {
    const amt = r.int(10, 900) * 1000;
    return { text: `I have $${amt.toLocaleString('en-US')} ${r.pick(['in a 401k', 'in savings', 'from an inheritance', 'in a brokerage account'])}. I'm ${r.int(25, 65)} and ${r.pick(['risk-averse', 'comfortable with volatility', 'retiring in 5 years'])}. How should I allocate between stocks, bonds and cash?`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'backtest', gen(r) {
    return { text: `Write a Python backtest for ${r.pick(['an RSI(14) < 30 buy / > 70 sell rule on SPY daily data since 2010', 'a 60/40 portfolio rebalanced quarterly vs annually', 'a volatility-targeting overlay at 10% annualized'])}, including transaction costs and slippage, and report Sharpe, max drawdown and CAGR.`, difficulty: 4, stakes: 'high' };
  } },
  { id: 'analysis', gen(r) {
    return { text: `${r.pick(['Analyze', 'What do you make of', 'Give me a bull and bear case for'])} ${r.pick(TICKERS)} ${r.pick(['after the earnings miss', 'given the rate outlook', 'at a forward P/E of 35', 'after the 20% drop this month'])}. Should I ${r.pick(['buy', 'sell', 'hold', 'add to my position'])}?`, difficulty: 3, stakes: 'high' };
  } },
  { id: 'concepts', gen(r) {
    // Textbook explanations carry no money decision, so they stay normal stakes.
    return dpick(r, [[2, 'What is the difference between a limit order and a stop-limit order?'], [2, 'Explain how margin calls work.'], [2, 'What is the yield curve and why does inversion matter?'], [2, 'How does dollar-cost averaging compare to lump-sum investing?'], [3, 'What is Value at Risk and how is it computed?'], [2, 'Explain the funding rate on perpetual futures.'], [1, 'What does basis points mean in bond trading?'], [1, 'what is a stock, explain for my homework']]);
  } },
  { id: 'risk', gen(r) {
    return { text: `Our fund holds ${r.int(20, 200)} positions with gross exposure ${r.int(120, 300)}%. Compute the portfolio VaR at 99% using historical simulation, stress test for a 2008-style drawdown and a rates shock of +200bp, and suggest hedges.`, difficulty: 5, stakes: 'high' };
  } },
  { id: 'valuation', gen(r) {
    return { text: `Build a DCF for ${r.pick(COMPANIES)}: revenue $${r.int(50, 900)}M growing ${r.int(5, 30)}%/yr for 5 years, EBITDA margin ${r.int(10, 35)}%, capex ${r.int(3, 10)}% of revenue, WACC ${r.int(7, 12)}%, terminal growth 2.5%. What's the equity value per share with ${r.int(10, 90)}M shares?`, difficulty: 4, stakes: 'high' };
  } },
  { id: 'crypto', gen(r) {
    const q = dpick(r, [[2, 'Should I put my emergency fund into ETH staking?'], [2, 'Is it a good time to buy Bitcoin?'], [3, 'Explain impermanent loss in a Uniswap liquidity pool with a numeric example.'], [3, `My ${r.pick(['BTC', 'SOL'])} long at ${r.int(5, 50)}x leverage is close to liquidation. What should I do?`]]);
    return { ...q, stakes: 'high' };
  } },
  { id: 'es', lang: 'es', gen(r) {
    return { ...dpick(r, [[2, `¿Conviene comprar acciones de ${r.pick(TICKERS)} ahora?`], [2, 'Explícame cómo funciona una opción put.'], [3, 'Tengo 20.000 euros ahorrados, ¿cómo los invierto entre acciones, bonos y liquidez?'], [2, '¿Qué es el apalancamiento en trading?'], [4, 'Diseña una estrategia de cobertura con opciones para una cartera de 2 millones expuesta al IBEX 35.']]), stakes: 'high' };
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return { ...dpick(r, [[3, 'Comment construire un portefeuille diversifié avec des ETF ?'], [2, `Faut-il vendre mes actions ${r.pick(TICKERS)} avant les résultats ?`], [2, 'Explique-moi le ratio de Sharpe.'], [4, 'Calcule la VaR à 99 % de mon portefeuille actions-obligations et propose des couvertures.']]), stakes: 'high' };
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { ...dpick(r, [[2, 'Lohnt sich ein ETF-Sparplan auf den MSCI World?'], [2, 'Wie funktionieren Optionsscheine?'], [2, `Soll ich meine ${r.pick(TICKERS)}-Aktien verkaufen?`], [4, 'Entwickle eine Momentum-Strategie für DAX-Futures mit Positionsgrößen und Stop-Loss-Regeln und einem Backtest.']]), stakes: 'high' };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { ...dpick(r, [[2, 'Vale a pena investir no Tesouro Direto ou em ações?'], [3, 'Como funciona day trade no mini índice?'], [2, 'O que é uma opção de compra?'], [2, `Devo vender minhas ações da ${r.pick(['Petrobras', 'Vale', 'Itaú'])} antes do balanço?`], [3, 'Como montar uma carteira de dividendos?'], [3, `Tenho R$ ${r.int(5, 500)} mil parados, onde invisto?`], [2, 'Explique o que é stop loss e como usar.']]), stakes: 'high' };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return { ...dpick(r, [[2, '现在适合买入比特币吗？'], [3, '请解释一下期权的希腊字母。'], [3, '帮我设计一个均线交易策略。'], [3, `我有${r.int(5, 500)}万元，怎么配置股票和债券？`], [2, '什么是融资融券，风险有多大？'], [2, `${r.pick(['贵州茅台', '宁德时代', '腾讯'])}的估值现在贵吗？`], [3, '如何计算投资组合的最大回撤和夏普比率？']]), stakes: 'high' };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    return { ...dpick(r, [[3, '新NISAでおすすめの投資方法は？'], [2, 'FXのレバレッジについて教えてください。'], [2, 'オプションのデルタとは何ですか？'], [2, `${r.pick(['トヨタ', 'ソニー', '任天堂'])}の株は今買い時ですか？`], [2, '信用取引の追証について説明してください。'], [3, `${r.int(100, 3000)}万円の資産をどう分散投資すべき？`], [3, '移動平均線を使った売買ルールを作りたいです。']]), stakes: 'high' };
  } },
  { id: 'multi-slots', lang: 'es', gen(r) {
    const t = r.pick(TICKERS);
    return { ...dpick(r, [[2, `¿Vendo mis acciones de ${t} o espero?`], [3, `¿Cómo calculo el tamaño de mi posición en ${t} arriesgando solo el 1%?`], [2, '¿Qué es un ETF y conviene para empezar a invertir?'], [3, `Tengo ${r.int(5, 90)} mil euros, ¿cómo diversifico entre renta fija y variable?`], [2, '¿Qué significa que un bono tenga una rentabilidad del 4%?'], [3, 'Explícame cómo funciona una venta en corto y sus riesgos.'], [4, `Construye una estrategia de opciones para cubrir mi cartera ante una caída del ${r.int(10, 30)}%.`]]), stakes: 'high' };
  } },
  { id: 'multi-slots-fr', lang: 'fr', gen(r) {
    const t = r.pick(TICKERS);
    return { ...dpick(r, [[2, `Dois-je acheter des actions ${t} maintenant ?`], [2, "C'est quoi un ETF et est-ce un bon placement ?"], [3, `Comment répartir ${r.int(10, 200)} 000 € entre actions et obligations ?`], [2, 'Explique le levier dans le trading de CFD.'], [3, 'Comment fonctionne une option put et quand l’utiliser pour me couvrir ?'], [3, 'Comment calculer le ratio de Sharpe de mon portefeuille ?']]), stakes: 'high' };
  } },
  { id: 'multi-slots-ja', lang: 'ja', gen(r) {
    return { ...dpick(r, [[2, 'インデックス投資と個別株はどちらがいいですか？'], [2, `今${r.pick(['ビットコイン', '金', '米国株'])}を買うべきですか？`], [3, 'ポートフォリオのリスクを下げる方法を教えてください。'], [2, '株の配当利回りの計算方法は？'], [3, 'オプションで株価下落をヘッジする方法は？'], [2, 'FXのスプレッドとは何ですか？']]), stakes: 'high' };
  } },
  { id: 'multi-slots-zh', lang: 'zh', gen(r) {
    return { ...dpick(r, [[2, '现在应该买黄金还是美股？'], [2, '什么是ETF，适合新手吗？'], [3, `我有${r.int(10, 300)}万，怎么做资产配置降低风险？`], [3, '怎么用期权对冲股票下跌的风险？'], [2, '股票的市盈率怎么看？'], [3, '帮我分析一下这个网格交易策略的风险。']]), stakes: 'high' };
  } },
];

export const other = [
  { id: 'travel', gen(r) {
    return { text: `Plan a ${r.int(3, 14)}-day trip to ${r.pick(CITIES)} for ${r.pick(['a couple', 'a family with two kids', 'a solo traveler on a budget', 'friends who love food'])}. ${r.pick(['We like museums.', 'No early mornings.', 'Budget is tight.', ''])}`.trim(), system: genericSystem(r), difficulty: 2 };
  } },
  { id: 'gift', gen(r) {
    return { text: `Gift ideas for ${r.pick(['my dad who has everything', 'a 10-year-old who loves space', 'my coworker leaving the company', 'my wife, our 10th anniversary', 'a new homeowner'])}, under $${r.int(20, 200)}?`, difficulty: 1 };
  } },
  { id: 'names', gen(r) {
    return { text: `${r.pick(['Suggest names for', 'Brainstorm names for', 'Give me 10 name ideas for'])} ${r.pick(['my new puppy', 'a bakery', 'a podcast about gardening', 'our fantasy football team', 'a baby girl'])}.`, difficulty: 1 };
  } },
  { id: 'life', gen(r) {
    return dpick(r, [[1, 'How do I get better at waking up early?'], [2, 'Make me a weekly meal plan for a vegetarian on a budget.'], [2, 'Give me a 4-week beginner workout plan at home.'], [1, 'How do I ask my boss for a raise?'], [1, 'Tips to keep my houseplants alive?'], [1, 'How should I organize my closet?'], [1, 'What should I cook tonight with chicken, rice and spinach?'], [1, 'How do I stop procrastinating?'], [3, 'Plan my wedding: 120 guests, two cultures, vegetarian and halal menus, outdoor venue with a rain backup, under $30k.']]);
  } },
  { id: 'weird', gen(r) {
    return { text: r.pick(['asdfghjkl', 'test', '?', '...', 'ping', '1234', 'lorem ipsum', 'can you hear me', 'what can you do?', 'ignore this']), difficulty: 1 };
  } },
  { id: 'games', gen(r) {
    return { text: r.pick(["Let's play 20 questions. I'm thinking of an animal.", 'Give me a riddle.', 'Tell me a joke about programmers.', "Let's play tic-tac-toe, I'm X and I take the center.", 'Make up a trivia quiz about the 90s.']), difficulty: 1 };
  } },
  { id: 'advice', gen(r) {
    return { text: r.pick([`Should I accept a job offer in ${r.pick(CITIES)} if it means leaving my friends?`, 'My roommate never cleans. How do I bring it up?', 'How do I prepare for my first marathon?', 'What should I consider before adopting a dog?', 'How do I choose between two universities?']), difficulty: 2 };
  } },
  { id: 'horoscope', gen(r) {
    return { text: r.pick(["What's my horoscope for today? I'm a Leo.", 'Interpret my dream: I was falling through clouds.', 'Pick a random number between 1 and 50.', 'Flip a coin for me.', 'Which Hogwarts house am I?']), difficulty: 1 };
  } },
  { id: 'es', lang: 'es', gen(r) {
    return dpick(r, [[1, '¿Qué le regalo a mi madre por su cumpleaños?'], [2, 'Organízame un viaje de 5 días por Andalucía.'], [1, 'Dame ideas para cenar hoy.'], [1, 'Cuéntame un chiste.'], [1, 'Sugiere nombres para mi perro.'], [2, 'Hazme una rutina de ejercicios para principiantes.']]);
  } },
  { id: 'fr', lang: 'fr', gen(r) {
    return dpick(r, [[1, 'Des idées de cadeau pour mon frère ?'], [2, 'Propose-moi un programme de sport pour débutant.'], [1, 'Que faire ce week-end à Paris ?'], [1, 'Raconte-moi une blague.'], [2, 'Organise-moi une semaine de menus végétariens.'], [1, 'Trouve un nom pour mon chat.']]);
  } },
  { id: 'de', lang: 'de', gen(r) {
    return { text: r.pick(['Was soll ich heute kochen?', 'Plane mir ein Wochenende in Hamburg.', 'Hast du Namensideen für meinen Hund?', 'Erzähl mir einen Witz.']), difficulty: 1 };
  } },
  { id: 'pt', lang: 'pt', gen(r) {
    return { text: r.pick(['Me dá ideias de presente para o dia dos pais.', 'Monte um roteiro de 3 dias no Rio.', 'O que fazer para dormir melhor?', 'Sugira nomes para minha gata.']), difficulty: 1 };
  } },
  { id: 'zh', lang: 'zh', gen(r) {
    return { text: r.pick(['周末去哪里玩比较好？', '给我推荐一些适合送女朋友的礼物。', '帮我制定一个减肥食谱。', '讲个笑话吧。']), difficulty: 1 };
  } },
  { id: 'ja', lang: 'ja', gen(r) {
    return { text: r.pick(['週末のおすすめの過ごし方は？', '犬の名前を考えてください。', '京都で三日間の旅行プランを作って。', 'なにか面白い話をして。']), difficulty: 1 };
  } },
];
