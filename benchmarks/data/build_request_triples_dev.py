"""Write ``request_triples_dev.jsonl``: the precision track's dev triples.

Hand-written for evaluation only, separately from the training templates in
``training/scoregate_training`` (other dishes, places, tasks and wording). Never used in
training.
Each row: domain, query, faithful (answers and honours the request), violating (does
what the request excludes, or says the opposite), off_topic (an answer to a request
from another domain, picked deterministically).

Run: ``python benchmarks/data/build_request_triples_dev.py``
"""

from __future__ import annotations

import json
from pathlib import Path

OUT = Path(__file__).with_name("request_triples_dev.jsonl")

# domain -> [(query, faithful, violating)]
TRIPLES: dict[str, list[tuple[str, str, str]]] = {
    "recipes": [
        ("How do I make a mushroom risotto? I'm vegetarian, so no chicken stock.",
         "Soften shallots in olive oil, toast arborio rice, then add hot vegetable stock a ladle"
         " at a time with sauteed mushrooms. Finish with parmesan and parsley.",
         "Soften shallots, toast the rice and add hot chicken stock a ladle at a time with the"
         " mushrooms. Finish with parmesan."),
        ("Tacos for tonight, but hold the cheese please.",
         "Warm corn tortillas and fill them with spiced black beans, pickled red onion, shredded"
         " cabbage, salsa verde and a squeeze of lime.",
         "Warm the tortillas, add seasoned beef, and pile on plenty of grated cheddar and sour"
         " cream."),
        ("Fluffy pancakes without eggs - is that possible?",
         "Yes. Whisk flour, baking powder, sugar and a pinch of salt, then stir in milk, melted"
         " butter and a spoon of vinegar. The vinegar reacts with the baking powder so they"
         " rise without any egg.",
         "Whisk flour and sugar, then beat in three eggs and milk; the eggs are what make them"
         " fluffy."),
        ("I'm allergic to shellfish. Can you suggest a paella?",
         "Make a chicken and chorizo paella: brown the meat, add sofrito, saffron, paprika and"
         " bomba rice, then simmer in stock with green beans and peas. No seafood at all.",
         "Classic seafood paella: saffron rice cooked with prawns, mussels and clams."),
        ("Give me a brownie recipe that's dairy-free.",
         "Melt dark chocolate with coconut oil, whisk in sugar and two eggs, fold in flour and"
         " cocoa, and bake for 25 minutes. Check the chocolate is labelled dairy-free.",
         "Melt chocolate with plenty of butter, whisk in sugar, eggs and a splash of cream, then"
         " bake."),
        ("What can I cook with lentils? I don't like spicy food.",
         "A mild lentil and carrot soup: simmer red lentils with carrots, onion, a bay leaf and"
         " vegetable stock, then blend with a little lemon juice.",
         "Make a fiery lentil dal with four green chillies, cayenne and a spoon of hot chilli"
         " paste."),
        ("A pizza dough recipe, no yeast.",
         "Mix self-raising flour with Greek yogurt and salt into a soft dough, roll it thin and"
         " bake hot; the baking powder in the flour does the rising.",
         "Dissolve a sachet of dried yeast in warm water, add flour and leave the dough to rise"
         " for two hours."),
        ("How do I make an omelette? Keep it low in salt, my doctor says no added salt.",
         "Beat three eggs with black pepper and chopped chives, cook gently in a little butter"
         " and fold it over spinach and tomato. Season with herbs instead of salt.",
         "Beat the eggs with a generous teaspoon of salt, add ham and salty feta, and fry."),
        ("Suggest a soup for a cold day. Nothing with potatoes.",
         "Try a roasted butternut squash soup with ginger and coconut milk, blended smooth.",
         "A thick potato and leek soup with chunks of floury potatoes is perfect."),
        ("How do I bake a simple sponge cake?",
         "Cream butter and sugar, beat in eggs, fold in self-raising flour and a splash of milk,"
         " and bake in two tins at 180 C for about 22 minutes.",
         "You can't really bake a sponge at home; it needs an industrial oven, so buy one."),
        ("Recipe for guacamole but I hate coriander.",
         "Mash ripe avocados with lime juice, finely diced tomato, a little red onion and salt."
         " Leave the herbs out or use a little parsley.",
         "Mash avocados with lime and stir in a big handful of chopped coriander."),
        ("A curry I can make without coconut milk?",
         "Make a tomato-based chicken curry: fry onion, garlic and ginger, add spices and"
         " chopped tomatoes, simmer the chicken and finish with yogurt.",
         "Simmer the chicken in two tins of coconut milk with curry paste."),
        ("I'd like a vegan chili recipe.",
         "Cook onions, peppers and garlic, add kidney beans, black beans, chopped tomatoes,"
         " cumin and smoked paprika, then simmer for forty minutes.",
         "Brown a kilo of minced beef, then add beans, tomatoes and spices."),
        ("What's a salad dressing that doesn't use oil?",
         "Blend Greek yogurt with lemon juice, Dijon mustard, a little honey and pepper.",
         "Whisk three parts olive oil to one part vinegar with mustard."),
        ("How do I roast a chicken?",
         "Rub the chicken with butter, salt and thyme, roast at 200 C for about 20 minutes per"
         " 500 g plus 20, and rest it before carving.",
         "Boil the chicken in salted water for three hours; roasting dries it out."),
        ("Dinner ideas please, but I can't eat gluten.",
         "Grilled salmon with rice and roasted vegetables, or a stir-fried beef with tamari over"
         " rice noodles, both naturally gluten-free.",
         "A big bowl of spaghetti carbonara with crusty bread on the side."),
        ("Cookies with no chocolate, please.",
         "Oatmeal raisin cookies: cream butter and brown sugar, add an egg, oats, flour,"
         " cinnamon and raisins, then bake for 12 minutes.",
         "Double chocolate chip cookies loaded with dark and milk chocolate chunks."),
        ("Quick breakfast idea that isn't eggs.",
         "Overnight oats: mix oats with milk and yogurt, leave in the fridge and top with"
         " berries in the morning.",
         "Scrambled eggs on toast, or a quick two-egg omelette."),
        ("Marinade for tofu, no soy sauce because of my allergy.",
         "Use coconut aminos with rice vinegar, maple syrup, garlic and ginger; press the tofu"
         " and let it sit for an hour.",
         "Mix soy sauce, sesame oil and garlic and soak the tofu overnight."),
    ],
    "code": [
        ("Implement binary search in Python without recursion.",
         "def binary_search(xs, target):\n    lo, hi = 0, len(xs) - 1\n    while lo <= hi:\n"
         "        mid = (lo + hi) // 2\n        if xs[mid] == target:\n            return mid\n"
         "        if xs[mid] < target:\n            lo = mid + 1\n        else:\n"
         "            hi = mid - 1\n    return -1\nIt uses an iterative while loop.",
         "def binary_search(xs, target, lo, hi):\n    mid = (lo + hi) // 2\n"
         "    if xs[mid] < target:\n        return binary_search(xs, target, mid + 1, hi)\n"
         "    return binary_search(xs, target, lo, mid)\nThis recursive version calls itself."),
        ("Check if a string is a palindrome. Don't use slicing.",
         "Compare characters from both ends with two indexes moving inward; return False on the"
         " first mismatch and True when they meet.",
         "Just return s == s[::-1]; the slice reverses the string."),
        ("How do I merge two dictionaries in Python 3.9?",
         "Use the union operator: merged = a | b. Keys from b win on conflicts.",
         "Dictionaries cannot be merged in Python; you have to rebuild both by hand."),
        ("FizzBuzz in JavaScript, please - not Python.",
         "for (let i = 1; i <= 100; i++) {\n  console.log(i % 15 === 0 ? 'FizzBuzz' : i % 3 ==="
         " 0 ? 'Fizz' : i % 5 === 0 ? 'Buzz' : i);\n}",
         "for i in range(1, 101):\n    print('FizzBuzz' if i % 15 == 0 else i)\nHere it is in"
         " Python."),
        ("Write a prime check function; I don't want any external packages.",
         "def is_prime(n):\n    if n < 2:\n        return False\n    i = 2\n"
         "    while i * i <= n:\n        if n % i == 0:\n            return False\n"
         "        i += 1\n    return True",
         "Install sympy and call sympy.isprime(n); the package does it for you."),
        ("Flatten a nested list in Python without using itertools.",
         "def flatten(xs):\n    out = []\n    for x in xs:\n        if isinstance(x, list):\n"
         "            out.extend(flatten(x))\n        else:\n            out.append(x)\n"
         "    return out",
         "import itertools\nflat = list(itertools.chain.from_iterable(nested))"),
        ("How can I read a JSON file in Python?",
         "with open('data.json', encoding='utf-8') as f:\n    data = json.load(f)\nAfter"
         " import json, data holds the parsed dicts and lists.",
         "Python has no way to read JSON; convert it to CSV in Excel first."),
        ("Count word frequencies in a text, but never use collections.Counter.",
         "counts = {}\nfor word in text.lower().split():\n    counts[word] = counts.get(word,"
         " 0) + 1\nA plain dictionary keeps the tally.",
         "from collections import Counter\ncounts = Counter(text.split())"),
        ("SQL query to get the ten most recent orders.",
         "SELECT * FROM orders ORDER BY created_at DESC LIMIT 10;",
         "SELECT * FROM orders ORDER BY created_at ASC LIMIT 10; -- the oldest ten"),
        ("Sort a list of dicts by the 'age' key, and don't modify the original list.",
         "people_sorted = sorted(people, key=lambda p: p['age'])\nsorted returns a new list,"
         " so people is unchanged.",
         "people.sort(key=lambda p: p['age'])\nThis sorts the list in place."),
        ("A bash one-liner to count lines in all .py files.",
         "find . -name '*.py' -print0 | xargs -0 cat | wc -l",
         "Open each file in a text editor and count the lines by hand."),
        ("How do I make an HTTP GET request in Python without the requests library?",
         "Use the standard library: from urllib.request import urlopen; body ="
         " urlopen('https://example.com').read().decode().",
         "pip install requests, then call requests.get(url).text."),
        ("Write a Go function that reverses a slice of ints.",
         "func reverse(xs []int) {\n    for i, j := 0, len(xs)-1; i < j; i, j = i+1, j-1 {\n"
         "        xs[i], xs[j] = xs[j], xs[i]\n    }\n}",
         "def reverse(xs):\n    return xs[::-1]\nPython is simpler, so I used that."),
        ("Remove duplicates from a list while keeping the order. No sets, please.",
         "result = []\nfor x in items:\n    if x not in result:\n        result.append(x)",
         "result = list(set(items))\nA set drops the duplicates."),
        ("How do I capitalise the first letter of a string in JavaScript?",
         "const out = s.charAt(0).toUpperCase() + s.slice(1);",
         "const out = s.toLowerCase(); // makes every letter small"),
        ("Write a Python class for a bank account. Don't use inheritance.",
         "class Account:\n    def __init__(self, balance=0):\n        self.balance = balance\n"
         "    def deposit(self, amount):\n        self.balance += amount",
         "class Account(BaseModel, Auditable):\n    ...\nIt inherits from two base classes."),
        ("Regex to match a UK postcode.",
         "^[A-Z]{1,2}[0-9][A-Z0-9]? ?[0-9][A-Z]{2}$ matches forms like SW1A 1AA and M1 1AE.",
         "You cannot match postcodes with a regular expression; use a paid API."),
        ("Explain what a Python generator is, without code examples.",
         "A generator is a function that produces values one at a time, pausing at each yield"
         " and resuming where it left off, so it never builds the whole sequence in memory.",
         "def gen():\n    yield 1\n    yield 2\nHere is an example generator in code."),
        ("Compute the average of a list in Python without numpy.",
         "avg = sum(values) / len(values) if values else 0.0",
         "import numpy as np\navg = np.mean(values)"),
    ],
    "email": [
        ("Write a resignation email to my manager. Don't mention the new job.",
         "Dear Karen, please accept this as my formal resignation; my last day will be 30 June."
         " Thank you for the support over the past three years. Best regards, Omar.",
         "Dear Karen, I'm resigning because I've accepted a better-paid job at a competitor."
         " My last day is 30 June. Omar."),
        ("Complain to the airline about my lost suitcase, but keep it polite - no threats.",
         "Dear customer relations, my suitcase did not arrive on flight BA117 on 3 May. Could"
         " you tell me where it is and when it will be delivered? Reference LHR44821. Thank you.",
         "My bag is lost and if you don't find it by Friday I will sue you and post everywhere"
         " about your useless airline."),
        ("Invite my neighbours to a barbecue on Saturday.",
         "Hi all, we're having a barbecue in our back garden this Saturday from 4pm. Bring"
         " yourselves and a drink if you like - food is on us. Hope to see you! Dan and Lucy",
         "Hi all, a reminder that the bins are collected on Saturday, please don't leave them"
         " out on Friday night."),
        ("Ask the shop for a refund on a broken blender. I don't want a replacement.",
         "Hello, the blender I bought on 2 April stopped working after a week. I'd like a full"
         " refund to my card rather than a replacement. Order number 55102. Thanks.",
         "Hello, the blender I bought stopped working. Please send me a replacement of the"
         " same model."),
        ("Email my team that Friday's meeting is cancelled. Don't reschedule it.",
         "Hi team, Friday's planning meeting is cancelled. We'll pick up the topics in our"
         " usual channels. Thanks!",
         "Hi team, Friday's meeting is moved to Monday at 10am, same room."),
        ("Write a cover letter opening for a nursing job. Avoid cliches like 'team player'.",
         "I have spent six years on a busy surgical ward, where I learned to stay calm when"
         " three patients need me at once and to explain a care plan in plain words.",
         "I am a hard-working team player who thinks outside the box and gives 110 percent."),
        ("Reply to a customer asking about delivery times.",
         "Thanks for your message. Orders placed before 2pm ship the same day and usually"
         " arrive within two to three working days.",
         "Thanks for your message. We are hiring warehouse staff; apply on our careers page."),
        ("Tell my landlady I'm moving out, and don't bring up the deposit.",
         "Dear Mrs Novak, I'm writing to give you two months' notice: I will move out of the"
         " flat on 31 August. Thank you for being such a helpful landlady. Best, Ines.",
         "Dear Mrs Novak, I'm moving out on 31 August and I expect my full deposit back"
         " within ten days. Ines."),
        ("Thank my interviewer, keep it under three sentences.",
         "Dear Mr Ito, thank you for taking the time to meet me today. I enjoyed learning about"
         " the analytics team and I'm excited about the role.",
         "Dear Mr Ito, thank you for meeting me. I wanted to add several points. First, my"
         " thesis. Second, my internship. Third, my hobbies. Fourth, my salary expectations."
         " Fifth, my availability. I look forward to hearing from you."),
        ("Write a birthday message for my grandmother - nothing about her age.",
         "Happy birthday, Gran! Thank you for all the stories, the best apple pie in the world"
         " and always having time for me. Lots of love.",
         "Happy 90th birthday, Gran! Ninety years old - what an age to reach!"),
        ("Send a reminder about the unpaid invoice.",
         "Hello, a friendly reminder that invoice 2291 for 1,200 euros was due on 15 March."
         " Could you let me know when payment will be made? Many thanks.",
         "Hello, I'd like to order another 50 units of your product, please send a quote."),
        ("Email a professor to ask about a PhD position. Don't mention funding.",
         "Dear Professor Adeyemi, I read your paper on river sediment transport and I'd love"
         " to discuss joining your group as a PhD student. I have attached my CV.",
         "Dear Professor Adeyemi, do you have a funded PhD position with a good stipend? I can"
         " only come if it is fully paid."),
        ("Apologise to a client for the delay, but don't blame our supplier.",
         "Dear Ms Reyes, I'm sorry your order is late. That's on us, and we're now shipping it"
         " by express at no extra cost. It will arrive on Thursday.",
         "Dear Ms Reyes, the delay is entirely our supplier's fault; they let us down again."),
        ("Write an out-of-office reply.",
         "Thanks for your email. I'm away until 12 August with no access to email. For urgent"
         " matters please contact Sara at sara@example.com.",
         "Thanks for your email. Our office hours are 9 to 5 and we sell garden furniture."),
        ("Draft a note to parents about the school trip. No mention of costs.",
         "Dear parents, Year 4 will visit the Natural History Museum on 6 June. Children should"
         " bring a packed lunch and wear comfortable shoes. We return by 3pm.",
         "Dear parents, the museum trip on 6 June costs 25 pounds per child, payable by"
         " Friday."),
        ("Write an email to a colleague asking for feedback on my slides, keep it informal.",
         "Hey Ben, could you have a quick look at my slides for Tuesday? Any thoughts on the"
         " flow would be great - no rush before Monday. Cheers!",
         "Dear Mr Harris, I would be most grateful if you would kindly review the attached"
         " presentation at your earliest convenience. Yours faithfully."),
        ("Ask my gym to cancel my membership. I'm not interested in a discount offer.",
         "Hello, please cancel my membership (number 40771) from the end of this month. I don't"
         " want to be contacted with retention offers. Thank you.",
         "Hello, I'd like to cancel, but if you can give me 50 percent off I'll stay for"
         " another year."),
        ("Announce the new office opening hours to staff.",
         "Hi everyone, from Monday the office will be open from 7.30am to 7pm, Monday to"
         " Friday. Please badge in as usual.",
         "Hi everyone, the canteen has a new menu with more vegetarian options."),
    ],
    "travel": [
        ("Three days in Rome - I don't want to visit any museums.",
         "Day one: the Colosseum from outside, the Forum and sunset at the Aventine. Day two:"
         " Trastevere markets and a food tour. Day three: a walk along the Appian Way.",
         "Day one: the Vatican Museums. Day two: the Capitoline Museums and Borghese Gallery."
         " Day three: the National Roman Museum."),
        ("Plan a trip to Iceland without renting a car.",
         "Base yourself in Reykjavik and book day tours by coach: the Golden Circle, the south"
         " coast waterfalls and a Northern Lights trip, plus the airport bus.",
         "Pick up a 4x4 rental car at the airport and drive the Ring Road yourself."),
        ("Weekend in New York, my budget is tight so no expensive restaurants.",
         "Walk the High Line, ride the free Staten Island ferry, and eat at food halls, pizza"
         " slice shops and the halal carts.",
         "Book dinner at Per Se and Eleven Madison Park - tasting menus are a must."),
        ("How do I get from London to Paris without flying?",
         "Take the Eurostar from St Pancras to Gare du Nord; it takes about two hours twenty.",
         "Book a flight from Heathrow to Charles de Gaulle; it's an hour in the air."),
        ("Suggest a honeymoon destination that isn't a beach resort.",
         "A road trip through Tuscany's hill towns, with vineyard stays and cooking classes.",
         "The Maldives: a water villa on a white-sand beach resort."),
        ("What should I pack for a week in Peru?",
         "Layers for cold mornings, a rain jacket, sturdy walking shoes for Machu Picchu,"
         " sunscreen, altitude tablets and a copy of your passport.",
         "You don't need to pack anything, Peru has the same weather as London all year."),
        ("A day in Barcelona, please avoid crowded tourist spots.",
         "Explore the Gracia neighbourhood, hike up Bunkers del Carmel early, and eat lunch in"
         " Poblenou away from the centre.",
         "Queue for the Sagrada Familia, then walk La Rambla and visit Park Guell at midday."),
        ("Can you recommend a ski resort in Canada?",
         "Whistler Blackcomb in British Columbia has huge terrain and a lively village.",
         "I'd recommend a beach holiday in Cancun instead of skiing."),
        ("Plan a train journey across Europe, never by night train.",
         "Travel Amsterdam to Berlin, Berlin to Prague and Prague to Vienna on daytime"
         " trains, each under five hours.",
         "Take the sleeper from Amsterdam to Vienna overnight and wake up in Austria."),
        ("Family trip to Canada with kids; we don't want long hikes.",
         "Visit Niagara Falls, the Toronto zoo and a short boardwalk trail in Banff with the"
         " gondola up Sulphur Mountain.",
         "Do the 30 km Berg Lake trail over three days; the kids will love the long hike."),
        ("What's the best way to see Venice?",
         "Walk early in the morning, use the vaporetto water buses and visit the islands of"
         " Burano and Murano.",
         "Venice is best seen by car; drive through the centre to see everything."),
        ("Where should I go in Vietnam for two weeks? Not Ha Long Bay - I've been.",
         "Hanoi, then the rice terraces of Sapa, Hue, Hoi An and finish in Ho Chi Minh City.",
         "Start with a three-day cruise in Ha Long Bay, it's a must-see."),
        ("Suggest a quiet weekend in the countryside.",
         "Rent a cottage in the Cotswolds, walk between villages and read by the fire.",
         "Spend the weekend clubbing in Ibiza until sunrise."),
        ("How can I travel around Thailand cheaply?",
         "Use overnight buses and third-class trains, stay in guesthouses and eat at street"
         " stalls.",
         "Hire private drivers and stay in five-star hotels everywhere."),
        ("Plan a city break in Berlin without any nightlife.",
         "Cycle along the Wall trail, picnic in Tempelhof park, visit the markets and be back"
         " at the hotel early.",
         "Start the evening in Kreuzberg bars and queue for Berghain after midnight."),
        ("I'm scared of boats. How do I get around Croatia's coast?",
         "Rent a car or take the coastal buses between Split, Sibenik and Dubrovnik; all"
         " three are on the mainland.",
         "Island-hop by ferry and catamaran from Split to Hvar and Korcula."),
        ("What's a good 5-day itinerary for Morocco?",
         "Marrakech for two days, a night in the desert near Merzouga, then Fes.",
         "Five days in Oslo: the fjords, the opera house and the ski jump."),
        ("A relaxing spa break, no long drive please - I live in Manchester.",
         "Head to a spa hotel in the Peak District, about an hour from Manchester.",
         "Drive ten hours to a spa in the far north of Scotland."),
    ],
    "facts": [
        ("What is the capital of Australia?", "Canberra is the capital of Australia.",
         "The capital of Australia is Sydney."),
        ("Do goldfish have a three-second memory?",
         "No, goldfish can remember things for months; the three-second idea is a myth.",
         "Yes, goldfish forget everything after three seconds."),
        ("Is a whale a fish?", "No, a whale is a mammal: it breathes air and feeds its young"
         " milk.", "Yes, whales are large fish."),
        ("What is the largest planet in the solar system?", "Jupiter is the largest planet.",
         "Mars is the largest planet in the solar system."),
        ("How many bones does an adult human have?", "An adult human has 206 bones.",
         "An adult human has about 50 bones."),
        ("Did Napoleon lose the Battle of Waterloo?",
         "Yes, Napoleon was defeated at Waterloo in 1815.",
         "No, Napoleon won the Battle of Waterloo."),
        ("Is Antarctica a desert?",
         "Yes, Antarctica is a cold desert because it gets very little precipitation.",
         "No, Antarctica is a tropical rainforest."),
        ("What do caterpillars turn into?",
         "Caterpillars turn into butterflies or moths.",
         "Caterpillars turn into frogs."),
        ("What is the speed of light?",
         "Light travels at about 300,000 kilometres per second in a vacuum.",
         "Light travels at about 300 kilometres per hour."),
        ("Which gas do humans exhale?",
         "We breathe out carbon dioxide (along with nitrogen and unused oxygen).",
         "Humans exhale pure hydrogen."),
        ("Is the Sahara in Africa?", "Yes, the Sahara covers much of North Africa.",
         "No, the Sahara is in South America."),
        ("Who developed the theory of relativity?",
         "Albert Einstein developed the theories of special and general relativity.",
         "Isaac Newton developed the theory of relativity."),
        ("Can humans breathe on the Moon without a suit?",
         "No, the Moon has no breathable atmosphere.",
         "Yes, the Moon has plenty of air."),
        ("What is the longest river in Africa?", "The Nile is Africa's longest river.",
         "The Thames is the longest river in Africa."),
        ("Does lightning never strike the same place twice?",
         "It does: tall buildings like the Empire State Building are struck many times a"
         " year.", "Correct, lightning never strikes the same spot twice."),
        ("What language has the most native speakers?",
         "Mandarin Chinese has the most native speakers.",
         "Latin has the most native speakers today."),
        ("What is the hardest natural mineral?", "Diamond is the hardest natural mineral.",
         "Chalk is the hardest natural mineral."),
        ("Is the Eiffel Tower in Berlin?", "No, the Eiffel Tower is in Paris.",
         "Yes, the Eiffel Tower stands in Berlin."),
    ],
    "images": [
        ("Design a logo for my coffee shop, no cups in it please.",
         "A minimal logo: a single roasted bean drawn as a crescent moon, with the shop name"
         " in a clean serif font beneath.",
         "The logo is a steaming coffee cup on a saucer with the shop name around it."),
        ("Make a desktop wallpaper of mountains without any people.",
         "Snow-capped peaks at dawn reflected in a still alpine lake, pine forest in the"
         " foreground, empty and quiet.",
         "Mountains at dawn with a group of hikers waving at the camera in front."),
        ("Illustrate a birthday card for a five-year-old who loves dinosaurs.",
         "A friendly green T-rex in a party hat blowing out five candles on a cake.",
         "An elegant watercolour of roses in a vase."),
        ("Generate a photo of a city street at night, no cars.",
         "A narrow pedestrian lane lit by paper lanterns, wet cobblestones shining, a cat"
         " crossing.",
         "A busy avenue at night full of taxis and cars with red tail lights."),
        ("I need an icon for a weather app, but not a sun.",
         "A small grey cloud with three raindrops below it, on a blue rounded square.",
         "A bright yellow sun with rays on a blue rounded square."),
        ("Create a poster for a jazz concert.",
         "A silhouette of a saxophonist under a spotlight, with 'Friday Jazz Night, 8pm' in"
         " gold lettering.",
         "A poster for a football match with the teams' badges."),
        ("Picture of a kitchen, but I don't want it to look modern.",
         "A rustic farmhouse kitchen with a wood-burning stove, copper pans on hooks and a"
         " worn oak table.",
         "A sleek modern kitchen with white gloss cabinets and a marble island."),
        ("Draw a horse in the style of a children's book.",
         "A chubby brown pony with a big smile and a flowery mane, drawn with soft crayon"
         " lines.",
         "A photorealistic portrait of a horse in a dark stable."),
        ("Make an illustration of a beach in winter, with no sunshine.",
         "A grey windswept beach under heavy clouds, waves crashing and a lone walker in a"
         " coat.",
         "A sunny beach with bright sunshine, blue sky and people sunbathing."),
        ("Create a cover image for a horror novel. Avoid blood.",
         "A fog-covered Victorian house with one lit window and a crooked gate.",
         "A knife dripping with blood on a dark background."),
        ("I want an image of a forest with no animals.",
         "Tall redwoods in morning mist, ferns on the ground and sunbeams through the"
         " branches.",
         "A forest with a deer, two foxes and an owl in the trees."),
        ("A flat illustration of a home office.",
         "A desk with a laptop, a plant, a lamp and a bookshelf in pastel flat colours.",
         "A watercolour of a sailing boat at sea."),
        ("Photo of a fruit bowl, but no bananas.",
         "A ceramic bowl of red apples, green pears and a bunch of purple grapes.",
         "A bowl piled with bananas, apples and oranges."),
        ("Make a picture of my town's market square in the rain.",
         "Umbrellas crowd the cobbled square, rain streaks the lamplight and market stalls"
         " glisten under wet awnings.",
         "A desert landscape with cacti in the midday sun."),
        ("A mascot for a bike shop, anything except a cartoon animal.",
         "A cheerful robot made of bicycle parts, with wheels for feet and a bell for a nose.",
         "A cartoon squirrel riding a bike and waving."),
        ("Create a black-and-white photo of a lighthouse.",
         "A black-and-white shot of a tall lighthouse on rocks with waves breaking around it.",
         "A colourful neon photo of a lighthouse in pink and green."),
        ("Generate an image of a classroom without any children.",
         "An empty classroom in afternoon light, chairs stacked on desks and a chalkboard.",
         "A busy classroom full of children raising their hands."),
        ("I don't want anything red on my website banner.",
         "A calm banner in navy and teal with white type.",
         "A bold red banner with white type and red arrows."),
    ],
    "maths": [
        ("What is the derivative of x squared?", "The derivative of x^2 is 2x.",
         "The derivative of x^2 is x^3 / 3."),
        ("What is 15% of 80? Don't use a calculator, show the mental steps.",
         "10% of 80 is 8 and 5% is 4, so 15% is 12.",
         "Type 0.15 * 80 into a calculator and you get 12."),
        ("Area of a circle with radius 3?",
         "Area = pi r^2 = 9 pi, about 28.3 square units.",
         "Area = 2 pi r = 6 pi, about 18.8."),
        ("Solve 2x + 6 = 14.", "Subtract 6 to get 2x = 8, so x = 4.",
         "x = 10, because 2 times 10 plus 6 is 14."),
        ("Is 91 a prime number?", "No: 91 = 7 x 13, so it is not prime.",
         "Yes, 91 is prime."),
        ("Explain the Pythagorean theorem without using algebra.",
         "In a right triangle, if you draw a square on each side, the two small squares"
         " together have exactly the same area as the big square on the longest side.",
         "a^2 + b^2 = c^2, where c is the hypotenuse; rearrange to c = sqrt(a^2 + b^2)."),
        ("How many ways can I arrange 4 books on a shelf?",
         "4 x 3 x 2 x 1 = 24 arrangements.", "There are 4 + 3 + 2 + 1 = 10 arrangements."),
        ("Convert 0.375 to a fraction.", "0.375 = 375/1000 = 3/8.",
         "0.375 is 3/5."),
        ("What's the probability of rolling a six on a fair die?",
         "One outcome out of six equally likely ones: 1/6, about 16.7%.",
         "It's 1/2, since you either roll a six or you don't."),
        ("Integrate 1/x.", "The integral of 1/x is ln|x| + C.",
         "The integral of 1/x is x^0 / 0, which is undefined, so it has no integral."),
        ("What's the mean of 4, 8 and 12?", "(4 + 8 + 12) / 3 = 8.",
         "The mean is 12, the largest number."),
        ("Explain what a prime number is to a child, no jargon.",
         "A prime number can only be shared out evenly into groups of one or into one big"
         " group - like 7 sweets, which you can't split into equal piles of 2 or 3.",
         "A prime p is an integer greater than 1 whose only positive divisors are 1 and p,"
         " i.e. it is irreducible in the ring of integers."),
        ("Simplify (x^2 - 9)/(x - 3).", "It factors as (x-3)(x+3)/(x-3) = x + 3 for x != 3.",
         "It simplifies to x - 3."),
        ("What is 7 cubed?", "7^3 = 343.", "7 cubed is 21."),
        ("How do I compute compound interest?",
         "A = P(1 + r/n)^(nt): principal times one plus the rate per period, raised to the"
         " number of periods.",
         "Just multiply the principal by the rate once; interest never compounds."),
        ("Is the square root of 2 rational?",
         "No, sqrt(2) is irrational: it can't be written as a fraction of two integers.",
         "Yes, the square root of 2 is exactly 1.4, which is 7/5."),
        ("What is the sum of the angles in a triangle?",
         "The angles of a triangle add up to 180 degrees.",
         "They add up to 360 degrees."),
        ("Give an example of an even prime.", "2 is the only even prime number.",
         "There are no even primes; 4 is the smallest even number and it is not prime."),
    ],
    "advice": [
        ("How do I ask for a raise? I don't want to threaten to quit.",
         "Book a meeting, bring evidence of your results and the market rate for your role,"
         " and ask clearly for a specific number.",
         "Tell your boss you have another offer and you'll leave unless they pay you more."),
        ("Tips for a first job interview.",
         "Research the company, prepare two or three stories about your achievements, arrive"
         " ten minutes early and have questions ready for them.",
         "Tips for growing tomatoes: plenty of sun and regular watering."),
        ("How can I stop procrastinating? Please no apps.",
         "Break the task into a five-minute first step, put your phone in another room, and"
         " work in short timed blocks with paper lists.",
         "Install Forest, Todoist and Freedom - these apps will fix it."),
        ("How should I prepare for moving house?",
         "Start packing room by room two weeks ahead, label boxes by room, book the van early"
         " and redirect your post.",
         "Don't prepare at all - just throw everything in the van on the day."),
        ("How can I make friends in a new city without going to bars?",
         "Join a running club, volunteer, take an evening class or a board-game cafe night.",
         "Go to a different bar every night and talk to whoever is there."),
        ("Advice for a difficult conversation with my sister, I don't want to use text"
         " messages.",
         "Ask to meet in person or call her, start by saying what you value in her, and"
         " listen before you explain your side.",
         "Send her a long text message explaining everything so she can read it later."),
        ("How do I deal with a noisy neighbour without involving the police?",
         "Knock and talk calmly first, suggest quiet hours, and if that fails write a polite"
         " note or ask the landlord or council mediation service.",
         "Call the police every time the music starts."),
        ("How do I start saving money? I don't want to invest in stocks.",
         "Set up an automatic transfer to a savings account on payday and track your spending"
         " for a month to find easy cuts.",
         "Put everything into an index fund and individual tech stocks."),
        ("Tips for public speaking, and please don't tell me to picture the audience naked.",
         "Rehearse out loud three times, slow down, breathe before you start and pick a few"
         " friendly faces to talk to.",
         "Picture the audience naked; it always works."),
        ("What should I do if I'm burned out at work?",
         "Talk to your manager about workload, take real time off, protect your evenings and"
         " consider speaking to a doctor or counsellor.",
         "Push through and take on more projects; burnout goes away on its own."),
        ("How do I keep houseplants alive? I travel a lot.",
         "Choose hardy plants like snake plants and ZZ plants, use self-watering pots, and"
         " group them away from direct sun while you're away.",
         "Buy ferns and orchids and water them every single day."),
        ("How can I improve my handwriting?",
         "Slow down, hold the pen loosely, practise letter shapes on lined paper for ten"
         " minutes a day.",
         "Type everything; handwriting can't be improved."),
        ("How do I negotiate rent with my landlord, without sounding aggressive?",
         "Be friendly, point to your record of paying on time, and mention similar flats"
         " nearby to suggest a modest reduction.",
         "Demand a 30 percent cut or say you'll leave a terrible review of the flat."),
        ("What's a good morning routine? I can't do anything before 7am.",
         "Get up at 7.15, drink water, a ten-minute walk outside and a simple breakfast before"
         " checking your phone.",
         "Wake at 5am, run for an hour and meditate before 6.30."),
        ("How do I teach my kid to ride a bike?",
         "Lower the seat so their feet touch the ground, remove the pedals for balance"
         " practice, then add them back once they can glide.",
         "Put them on a bike at the top of a steep hill and let go."),
        ("Advice on choosing a university course - I don't want to study medicine.",
         "List subjects you enjoy, look at course modules and graduate jobs, and talk to"
         " current students on open days. Law, engineering or economics might suit you.",
         "You should definitely study medicine, it's the safest choice."),
        ("How can I be more productive working from home?",
         "Keep a dedicated desk, start at a fixed time, take a proper lunch break away from"
         " the screen and close the laptop at the end of the day.",
         "Work from bed with the TV on so you don't get bored."),
        ("How do I write a good CV?",
         "Keep it to two pages, lead with achievements backed by numbers, and tailor it to"
         " each job.",
         "A good CV should be ten pages and list every job since school."),
    ],
    "shopping": [
        ("Recommend a laptop for students that isn't a Mac.",
         "A Lenovo ThinkPad E14 or an ASUS Zenbook 14: light, good battery and a solid"
         " keyboard.",
         "Get a MacBook Air with the M3 chip; it's the best student laptop."),
        ("I need running shoes for flat feet, not Nike.",
         "Try the Brooks Adrenaline GTS or ASICS Gel-Kayano, both stability shoes.",
         "The Nike Structure is your best choice."),
        ("What sofa should I buy for a small flat? I don't want leather.",
         "A compact two-seater in a durable woven fabric, around 160 cm wide, with raised"
         " legs so the room feels bigger.",
         "A large brown leather corner sofa."),
        ("Gift ideas for a teenage girl who loves art.",
         "A set of alcohol markers, a quality sketchbook and a ticket to a local art class.",
         "A new lawnmower and a set of spanners."),
        ("Suggest a phone under 300 dollars.",
         "The Google Pixel 7a often sells below 300 dollars and has a great camera.",
         "The iPhone 15 Pro Max at 1,199 dollars."),
        ("What should I buy for a new baby? No clothes, they have plenty.",
         "A baby carrier, a white-noise machine and a few board books.",
         "A set of baby onesies, socks and a knitted cardigan."),
        ("Best headphones for running? I don't want over-ear.",
         "Sports earbuds like the Jabra Elite 8 Active or Shokz bone-conduction headphones.",
         "The Sony WH-1000XM5 over-ear headphones."),
        ("I'm looking for a winter coat that isn't made with real fur or down.",
         "A synthetic-insulated parka such as one filled with PrimaLoft, with a faux-fur hood.",
         "A goose-down parka with a real fox-fur trim."),
        ("Recommend a board game for four adults.",
         "Ticket to Ride or Codenames: easy to learn and great with four players.",
         "A set of wooden building blocks for toddlers."),
        ("What mattress should I get? Not memory foam, it's too hot for me.",
         "A pocket-sprung or latex mattress sleeps cooler and still supports your back.",
         "A thick memory foam mattress that moulds to your body."),
        ("A present for my grandfather, who doesn't like gadgets.",
         "A good wool scarf, a hardback history book or tickets to a concert.",
         "A smartwatch and a voice assistant speaker."),
        ("Which camera is good for beginners?",
         "A mirrorless camera like the Sony a6100 or Canon R50 with a kit lens.",
         "Buy a microwave with a grill function."),
        ("I need a suitcase for short trips, no hard shell.",
         "A soft-sided carry-on like a Travelpro Maxlite with expandable zip.",
         "A polycarbonate hard-shell spinner suitcase."),
        ("Good wine for a dinner party under 20 pounds? Not red.",
         "A Picpoul de Pinet or a dry Riesling, both crisp whites under 15 pounds.",
         "A Rioja Reserva or a Chilean Merlot."),
        ("Recommend a bike for commuting in a hilly city.",
         "A hybrid with a wide gear range or an e-bike with a mid-drive motor.",
         "A fixed-gear track bike with no gears."),
        ("What toys are good for a two-year-old, nothing with batteries?",
         "Stacking cups, wooden puzzles with big knobs, and a push-along walker.",
         "A battery-powered talking robot with flashing lights."),
        ("Buy me some sunglasses, I don't want aviators.",
         "Round tortoiseshell frames with polarised lenses.",
         "Classic gold aviators with mirrored lenses."),
        ("What should I look for in a kettle?",
         "A rapid-boil element, a clear water gauge, a limescale filter and auto shut-off.",
         "Look for a comfortable office chair with lumbar support."),
    ],
    "health": [
        ("How can I ease a tension headache without taking painkillers?",
         "Drink water, rest your eyes, massage your neck and temples, and apply a warm compress"
         " to your shoulders.",
         "Take two ibuprofen and a paracetamol straight away."),
        ("How much water should I drink a day?",
         "Most adults need around 1.5 to 2 litres of fluid a day, more when hot or active.",
         "You shouldn't drink water at all; you get everything from coffee."),
        ("Tips for better posture at a desk.",
         "Keep the screen at eye level, feet flat on the floor, and stand up every 30 minutes.",
         "Slouch down in the chair with the laptop on your knees."),
        ("Healthy snacks without sugar?",
         "Carrot sticks with hummus, a handful of almonds, or cheese with cucumber slices.",
         "Gummy bears, a chocolate bar and a can of cola."),
        ("How do I lower my stress levels? Not meditation, I've tried it.",
         "Regular exercise, time outdoors, a consistent sleep schedule and talking things"
         " through with a friend.",
         "Meditate for twenty minutes twice a day."),
        ("What should I eat before a morning run?",
         "A light snack like a banana or toast with honey 30 to 60 minutes before.",
         "A full English breakfast right before you set off."),
        ("How can I get better sleep without melatonin?",
         "Keep a fixed wake-up time, avoid screens an hour before bed and keep the room cool"
         " and dark.",
         "Take 10 mg of melatonin every night."),
        ("Stretches for tight hamstrings, nothing that needs equipment.",
         "Standing forward fold, seated single-leg stretch and lying hamstring stretch with"
         " your hands behind the knee.",
         "Use a resistance band and a foam roller for each leg."),
        ("Is it okay to exercise with a cold?",
         "Light exercise is usually fine if symptoms are above the neck; rest if you have a"
         " fever or chest symptoms.",
         "Buy a treadmill with a built-in TV screen."),
        ("How do I treat a minor burn?",
         "Cool it under running water for 20 minutes, then cover it loosely with cling film.",
         "Put butter and ice directly on the burn."),
        ("Good sources of protein for a vegetarian, no soy.",
         "Lentils, chickpeas, eggs, Greek yogurt, quinoa and seitan.",
         "Tofu, tempeh, edamame and soy milk."),
        ("How can I cut down on caffeine?",
         "Swap one coffee a day for decaf or herbal tea each week, and stop by early"
         " afternoon.",
         "Drink an extra espresso whenever you feel tired."),
        ("How do I prevent blisters when hiking?",
         "Wear worn-in boots and merino socks, keep feet dry and tape hot spots early.",
         "Hike in brand-new boots without socks."),
        ("A low-impact workout for bad knees - no jumping.",
         "Swimming, cycling and a seated strength routine with resistance bands.",
         "Burpees, box jumps and skipping rope."),
        ("What helps with hay fever naturally, without antihistamines?",
         "Keep windows shut in the morning, shower after being outside and put a little"
         " petroleum jelly around your nostrils.",
         "Take a cetirizine antihistamine every morning."),
        ("How long should I brush my teeth?", "Brush for two minutes, twice a day.",
         "Ten seconds once a week is plenty."),
        ("How can I stay active in an office job?",
         "Walk during calls, take the stairs and set a reminder to stand every hour.",
         "Stay seated all day to save energy."),
        ("Breakfast ideas for someone with diabetes.",
         "Greek yogurt with nuts and berries, or eggs with wholegrain toast and avocado.",
         "A large glass of orange juice and a sugary pastry."),
    ],
    "music": [
        ("Songs for a wedding first dance, nothing by Ed Sheeran.",
         "At Last by Etta James, Can't Help Falling in Love by Elvis, or Make You Feel My Love"
         " by Adele.",
         "Perfect and Thinking Out Loud by Ed Sheeran."),
        ("Background music for studying, no lyrics please.",
         "Lo-fi instrumental beats, Ludovico Einaudi's piano pieces or Bach's Goldberg"
         " Variations.",
         "Taylor Swift's albums, sing along to stay awake."),
        ("How do I start learning piano as an adult?",
         "Get a keyboard with weighted keys, learn to read simple notation and practise scales"
         " and easy pieces for fifteen minutes a day.",
         "The best way to learn drums is to buy a kit and practise rudiments."),
        ("Recommend some 80s songs for a party, but not Madonna.",
         "Take On Me by a-ha, Don't You Want Me by The Human League, Billie Jean by Michael"
         " Jackson.",
         "Like a Prayer, Material Girl and Holiday by Madonna."),
        ("A playlist for a rainy Sunday, no heavy metal.",
         "Norah Jones, Nick Drake, Bon Iver and some Chet Baker.",
         "Metallica, Slayer and Iron Maiden at full volume."),
        ("Which instrument should my eight-year-old learn? Not the violin.",
         "The piano or ukulele: easy to start on and great for learning music basics.",
         "The violin - start with a quarter-size instrument."),
        ("Suggest classical music for beginners.",
         "Vivaldi's Four Seasons, Beethoven's Fifth and Debussy's Clair de Lune.",
         "Suggest Drake and Travis Scott albums."),
        ("Songs for a long road trip, nothing slow.",
         "Mr. Brightside, Born to Run, Shut Up and Dance and Don't Stop Believin'.",
         "The Sound of Silence, Hallelujah and Mad World."),
        ("How do I tune a guitar without a tuner?",
         "Tune the low E to a reference note, then fret the fifth fret of each string to"
         " match the next open string (fourth fret for the G to B).",
         "Buy a clip-on electronic tuner; it's the only way."),
        ("Recommend a jazz album for someone new to jazz.",
         "Kind of Blue by Miles Davis: relaxed, melodic and a classic starting point.",
         "Master of Puppets by Metallica."),
        ("Music for a children's party, but no nursery rhymes.",
         "Happy by Pharrell, Can't Stop the Feeling, Shake It Off and the Macarena.",
         "Twinkle Twinkle Little Star, Old MacDonald and Baa Baa Black Sheep."),
        ("What's a good song to sing at karaoke if I'm not a strong singer?",
         "Sweet Caroline or Livin' on a Prayer: the crowd sings along and carries you.",
         "Bohemian Rhapsody - hit every high note."),
        ("How can I practise singing at home?",
         "Warm up with lip trills, sing scales with a piano app and record yourself to"
         " listen back.",
         "Singing can't be practised at home; you need a studio."),
        ("Songs about friendship that aren't cheesy.",
         "You've Got a Friend by Carole King, Lean on Me by Bill Withers, Ho Hey by The"
         " Lumineers.",
         "A list of breakup songs by Adele."),
        ("Suggest reggae artists other than Bob Marley.",
         "Toots and the Maytals, Burning Spear, Chronixx and Protoje.",
         "Bob Marley and the Wailers, especially Legend."),
        ("Best way to learn drums in an apartment?",
         "Use an electronic kit with mesh heads and headphones, or a practice pad.",
         "Buy a loud acoustic kit and play late at night."),
        ("Playlist for a dinner with my parents, no explicit lyrics.",
         "Fleetwood Mac, Stevie Wonder, Norah Jones and Paul Simon.",
         "Explicit hip hop tracks from the last year."),
        ("Which DAW is good for making electronic music on a budget?",
         "Reaper is cheap and powerful; LMMS is free; Ableton Live Intro is affordable.",
         "Buy a grand piano and learn Chopin."),
    ],
    "writing": [
        ("Write a haiku about autumn, without mentioning leaves.",
         "Cold breath on the glass / geese stitch the grey sky southward / the pumpkin field"
         " hums",
         "Red leaves drifting down / leaves on the pond, leaves on stone / autumn leaves"
         " falling"),
        ("Give me a tagline for a bakery, no puns.",
         "Bread baked every morning by people who care.",
         "We knead you - our loaves are the yeast we can do!"),
        ("Write a two-line bio for a freelance photographer.",
         "Maya is a Lisbon-based photographer who shoots weddings and travel stories in"
         " natural light. Her work has appeared in Conde Nast Traveller.",
         "Maya is a Lisbon-based accountant specialising in tax returns for small"
         " businesses."),
        ("Write a short story opening, but don't start with the weather.",
         "The letter had been under the floorboard for forty years, and Nora was the first"
         " person to read it.",
         "It was a dark and stormy night, and the rain fell in torrents."),
        ("Summarise Romeo and Juliet in one sentence, no spoilers about the ending.",
         "Two young people from feuding families in Verona fall in love and marry in secret.",
         "Two lovers from feuding families marry in secret, and both die by suicide at the"
         " end."),
        ("A limerick about a cat, keep it clean.",
         "A cat with a taste for the cream / would plot and would plan and would scheme; / she"
         " climbed on the shelf, / helped herself to herself, / and purred in a milky"
         " daydream.",
         "A cat with a taste for the cream would swear like a sailor, crude and obscene."),
        ("Write a product review of wireless earbuds, balanced, not all praise.",
         "Good sound and a snug fit, but the battery lasts only five hours and the case"
         " scratches easily. Solid value overall.",
         "Absolutely perfect in every way, the best earbuds ever made, flawless!"),
        ("Write a toast for my brother's wedding, avoid any embarrassing stories.",
         "To Sam and Leila: may your home always be full of laughter and good food. Sam, you"
         " have always been my best friend, and today I gain a sister.",
         "Let me tell you about the time Sam got drunk and fell into the fountain in his"
         " pants."),
        ("Describe a sunset without using the colour orange.",
         "The sky burned pink and gold, then faded to violet as the sun slid behind the hills.",
         "A blazing orange sunset, orange clouds and an orange sea."),
        ("Write a motivational quote about learning.",
         "Every expert was once a beginner who refused to stop.",
         "Recipe: two eggs, flour and milk."),
        ("A short poem about the city, no rhyming.",
         "Sirens stitch the evening / to the hum of the night bus; / windows light up one by"
         " one, / each a small sun.",
         "The city is bright, it shines in the night, / the cars move along, the streets sing"
         " a song."),
        ("Write an apology note to a friend for missing her party, no excuses.",
         "I'm so sorry I missed your party. I know how much it meant to you, and I'd love to"
         " take you out for dinner this week to celebrate.",
         "Sorry I missed it, but my car broke down, my phone died and I had a headache."),
        ("Write a job ad for a barista, don't ask for experience.",
         "We're hiring a friendly barista! No experience needed - we'll train you on"
         " everything from espresso to latte art.",
         "Barista wanted: at least three years of experience in specialty coffee required."),
        ("Write a children's story title about a brave mouse.",
         "Pip and the Great Cheese Mountain.",
         "Quarterly Tax Filing for Small Businesses."),
        ("Write a formal complaint letter opening, no sarcasm.",
         "I am writing to express my dissatisfaction with the service I received on 4"
         " March.",
         "Oh, wonderful service as always - thank you so much for ruining my day."),
        ("Write a one-paragraph description of a hotel room, don't mention the view.",
         "The room has a king-size bed with crisp linen, a rain shower and a reading corner"
         " with an armchair and lamp.",
         "The room's highlight is the breathtaking view over the bay from the balcony."),
        ("Give three synonyms for 'happy'.", "Cheerful, joyful and content.",
         "Sad, gloomy and miserable."),
        ("Write a slogan for a recycling campaign.", "Give your rubbish a second life.",
         "Buy more plastic today!"),
    ],
}


def _off_topic(domain: str, index: int) -> str:
    """The faithful answer of the same position in the next domain (wrapping)."""
    names = list(TRIPLES)
    other = TRIPLES[names[(names.index(domain) + 1 + index % 3) % len(names)]]
    return other[index % len(other)][1]


def rows() -> list[dict[str, str]]:
    """Every dev triple as a JSON-ready dict."""
    out: list[dict[str, str]] = []
    for domain, triples in TRIPLES.items():
        for i, (query, faithful, violating) in enumerate(triples):
            out.append({"domain": domain, "query": query, "faithful": faithful,
                        "violating": violating, "off_topic": _off_topic(domain, i)})
    return out


def main() -> None:
    data = rows()
    with OUT.open("w", encoding="utf-8") as fh:
        for row in data:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(data)} triples over {len(TRIPLES)} domains to {OUT}")


if __name__ == "__main__":
    main()
