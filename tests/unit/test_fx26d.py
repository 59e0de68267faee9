"""The reviewer's 136 pairs for the narrowed figure form of ``scoring.restated``
(fx26d): 92 good answers, none of which may fire, and 44 bad ones, of which the 21 that
restate the request's figure as the asker's own premise must fire ("since you've got
about ten weeks", "your 40 litre tank" -> "your 9-year-old", "a 60 litre tank like
yours"). Before the narrowing the form fired on 13 of the 92 good answers and caught 18
of the 44 bad ones; after it, 0 and 21. The pairs are copied here, not read from a file."""

from __future__ import annotations

import pytest

from scoregate.scoring.restated import contradicted

TANK = "I have a 25 litre tank. What fish can I keep in it?"
EXAM = "My Goethe B1 exam is in 6 weeks. Can you give me a week-by-week writing plan?"

# Good answers: none fires (13 did before the narrowing).
GOOD = [
    (
        TANK,
        "A 25L tank is on the small side, so stick to nano species. A single betta or a small "
        "group of chili rasboras would do well. If you can upgrade later, a 60 litre tank opens "
        "up many more options.",
    ),
    (
        TANK,
        "Twenty-five litres is enough for a betta or a colony of cherry shrimp. Avoid goldfish "
        "entirely: they need at least 100 litres each.",
    ),
    (
        "I have a 25 litre tank. Can I keep angelfish?",
        "Sadly no. Angelfish grow tall and live in groups, and they really need a 200 litre "
        "tank. For your tank, a betta or a few pygmy corydoras are much better choices.",
    ),
    (
        "I have a 25 litre tank. Can I keep a goldfish?",
        "I'd advise against it. Goldfish produce a lot of waste and grow to 20 cm or more. A "
        "single fancy goldfish needs a 100 litre tank, and common goldfish belong in ponds. A "
        "betta would be happier in the tank you have.",
    ),
    (
        "I have a 25 litre tank. How many neon tetras can I add?",
        "That's about 6.6 US gallons, so keep stocking light: 6 to 8 neons is a reasonable "
        "group once the tank is fully cycled. Add them in two batches a couple of weeks apart.",
    ),
    (
        "My 25 litre tank keeps getting cloudy. What am I doing wrong?",
        "In a small tank, ammonia builds up fast. Change about 5 litres (20%) each week, rinse "
        "the filter sponge in old tank water, and feed only what is eaten in two minutes.",
    ),
    (
        EXAM,
        "Here's a plan for the six weeks. Week 1: learn the three task types. Week 2: useful "
        "phrases for emails. Week 3: opinion pieces. Week 4: timed practice. Week 5: full mock "
        "paper. Week 6: review mistakes and rest before the exam.",
    ),
    (
        EXAM,
        "A month and a half is enough if you're consistent. Spend the first fortnight on "
        "formats and phrases, the middle fortnight writing one task a day, and the last "
        "fortnight on timed mocks.",
    ),
    (
        "My Goethe B1 exam is in 6 weeks. How many hours a day should I study?",
        "Most learners need around 8 weeks of focused prep for B1 writing, so you'll want to be "
        "efficient: about 1 to 1.5 hours a day, with one longer mock at the weekend.",
    ),
    (
        "My IELTS test is in 6 weeks. Is that enough time?",
        "Yes, for most people moving up half a band. A typical 4-week course covers the "
        "formats; use the remaining time for mocks. Weeks 5 and 6 should be mostly timed "
        "practice.",
    ),
    (
        "My driving test is in 3 weeks. Any tips to calm my nerves?",
        "Three weeks is plenty of time to settle in. Book a mock test with your instructor in "
        "the second week, drive the test routes a few times, and sleep well the night before.",
    ),
    (
        "My marathon is in 12 weeks and I currently run 20 miles a week. How should I build up?",
        "Build gradually: add no more than 10% a week, reaching about 35 miles a week by week "
        "9. Then taper over the last three weeks. Keep one long run each Sunday.",
    ),
    (
        "My marathon is in 12 weeks and I currently run 20 miles a week. How should I build up?",
        "Realistically you have 10 weeks of building, because the final two are a taper. Add a "
        "mile to your long run each week and keep the other runs easy.",
    ),
    (
        "I'm doing a 12-week strength program. How should I structure it?",
        "Here's a 4-week program you run three times over, adding a little weight each cycle. "
        "Week 1: moderate volume. Week 2: heavier. Week 3: heaviest. Week 4: deload.",
    ),
    (
        "I can run 5k in 30 minutes. How do I get faster?",
        "Nice base! Add one interval session a week (e.g. 6 x 400 m) and one tempo run of 20 "
        "minutes. Most runners at your level can drop to about 27 minutes within 2 to 3 months.",
    ),
    (
        "I have a £600 budget for a laptop for university. What should I get?",
        "For £600 you can get a very capable machine. Look for 16 GB of RAM and an SSD. Good "
        "options: an Acer Swift Go at around £549 or a Lenovo IdeaPad Slim 5 at around £580.",
    ),
    (
        "I have a £600 budget for a laptop for university. What should I get?",
        "Keep about £50 aside for a sleeve and a mouse, so effectively you have £550. At that "
        "price the Lenovo IdeaPad Slim 5 or the Acer Swift Go are both solid.",
    ),
    (
        "We have a £600 budget for a week in Lisbon, not counting flights. Is that enough?",
        "Yes, if you're sensible. Split across the week, you've got roughly £85/day, which "
        "covers a hostel or budget guesthouse, cheap lunches and a few museums.",
    ),
    (
        "We have a £600 budget for a week in Lisbon, not counting flights. Is that enough?",
        "It's tight but doable. A guesthouse at about £50 a night takes £350, leaving around "
        "£250 for food and transport. A Lisboa Card for 48 hours costs about £30.",
    ),
    (
        "My budget is $2,000 for a used car. What should I look for?",
        "At $2,000 you're looking at older, high-mileage cars, so reliability matters more than "
        "looks. Set aside $200 for an inspection and immediate repairs. Toyotas and Hondas are "
        "the safest bets.",
    ),
    (
        "I earn $60,000 a year. How much should I spend on rent?",
        "The usual guideline is 30% of gross income, which for you is about $1,500 a month. "
        "After tax you'll take home roughly $3,900 a month, so staying near $1,300 leaves more "
        "room to save.",
    ),
    (
        "I earn $60,000 a year. How much should I spend on rent?",
        "That's about $5,000 a month before tax. After federal and state tax you'll probably "
        "take home around $3,900, so you've got roughly $3,900. I'd keep rent at or below "
        "$1,300.",
    ),
    (
        "I have £10,000 in savings. Should I invest it?",
        "First keep 3 to 6 months of expenses in an easy-access account. Say that's £3,000. "
        "That means you have £7,000. A global index fund in a stocks and shares ISA is a "
        "sensible home for it.",
    ),
    (
        "We're planning a wedding for 80 guests on a £15,000 budget. How should we split it?",
        "A common split: venue and catering about 50% (£7,500), photography 10% (£1,500), "
        "attire 8% (£1,200), flowers and decor 8% (£1,200), and the rest for music, stationery "
        "and a buffer. That works out to roughly £94 per guest for food and venue.",
    ),
    (
        "We're inviting 80 guests to our wedding. How much food should we order?",
        "Expect around 10% to decline, so plan for about 72 guests on the day but order for 75 "
        "to be safe. For a buffet, allow 150 to 200 g of protein per person.",
    ),
    (
        "We're taking a £250,000 mortgage over 25 years at 4.5%. What will the monthly payment be?",
        "Your monthly repayment would be about £1,390. Over the full term you'd pay back "
        "roughly £417,000, so about £167,000 is interest.",
    ),
    (
        "I want to overpay my £250,000 mortgage. Is it worth it?",
        "Usually yes if your rate is above what you'd earn on savings. Even £100 a month extra "
        "on a £250,000 loan at 4.5% can cut about 3 years off the term. Check your lender's "
        "overpayment limit, often 10% a year.",
    ),
    (
        "My 7-year-old hates reading. How can I help?",
        "That's common at seven. Let her choose the books, including comics and joke books. "
        "Read aloud together for 10 minutes a day. Most 8-year-olds who enjoy reading started "
        "by being read to, not by being pushed.",
    ),
    (
        "My 7-year-old hates reading. How can I help?",
        "A 10-year-old usually reads for pleasure only once decoding is effortless, so the key "
        "at your son's age is making it easy and fun. Try graphic novels and audiobooks "
        "alongside print.",
    ),
    (
        "My 10-year-old wants a smartphone. Is that too young?",
        "Many parents wait until 12 or until secondary school. If you do get one, start with a "
        "basic phone or strict parental controls, and keep it out of the bedroom at night.",
    ),
    (
        "My 3-year-old won't sleep in her own bed. What can I do?",
        "This is very common for toddlers. Set a consistent bedtime routine of about 30 "
        "minutes, use a night light, and return her to bed calmly each time. A sticker chart "
        "works well for many 3 and 4 year olds.",
    ),
    (
        "My 3-year-old still uses a balance bike. When can she move to pedals?",
        "Balance bikes are great. Next spring your 4-year-old will probably be ready for a 14 "
        "inch pedal bike without stabilisers, because she's already learned to balance.",
    ),
    (
        "We have 3 kids aged 4, 7 and 10. Where should we go on holiday in Spain?",
        "The Costa Daurada is ideal: shallow beaches and PortAventura. Your 10-year-old will "
        "love the big rides, while your 4-year-old has a whole Sesame Street area. Book a "
        "family apartment so all 3 kids can nap and snack.",
    ),
    (
        "We have 3 kids. What car should we buy?",
        "With three children, look at whether three car seats fit across the back. The Skoda "
        "Kodiaq and VW Touran take 3 kids comfortably, and a 7 seat car gives you flexibility "
        "for friends.",
    ),
    (
        "I'm organising a birthday party for 15 kids. How much pizza do I need?",
        "Kids usually eat 2 to 3 slices each, so you need 30 to 45 slices. With 8 slices per "
        "large pizza, order 5 or 6 large pizzas.",
    ),
    (
        "My baby is 4 months old and suddenly waking every 2 hours. Is this normal?",
        "Yes, this is the well-known 4-month sleep regression. Sleep cycles mature around 16 "
        "weeks, so more wakings are normal. It usually settles within 2 to 6 weeks.",
    ),
    (
        "I'm 20 weeks pregnant. What should I expect at the anatomy scan?",
        "At the mid-pregnancy scan, the sonographer checks the baby's heart, brain, spine and "
        "organs, and measures growth. It takes about 30 to 45 minutes. You're halfway now; your "
        "third trimester starts at 28 weeks.",
    ),
    (
        "I'm 30 weeks pregnant. When should I pack my hospital bag?",
        "Good timing to start: you have about 10 weeks, so there's no rush, but most midwives "
        "suggest having it ready by 36 weeks.",
    ),
    (
        "I'm 30 weeks pregnant. When should I pack my hospital bag?",
        "Aim to have it packed by 36 weeks. You're in the home stretch with about 10 weeks to "
        "go, so start collecting things now.",
    ),
    (
        "I'm 30 years old and just starting a pension. How much should I put in?",
        "A common rule is half your age as a percentage, so 15% of your salary including your "
        "employer's contribution. You've got 37 years of compounding ahead, which is a big "
        "advantage.",
    ),
    (
        "I'm 30 years old and just starting a pension. How much should I put in?",
        "Starting at 30 is fine. If you can save 12 to 15% of your salary, and increase it with "
        "each pay rise, you'll be in a good position by 67.",
    ),
    (
        "My dog weighs 30 kg. How much should I feed him?",
        "For a 30 kg adult dog of normal activity, most dry foods recommend around 350 to 400 g "
        "a day, split into two meals. Check the bag's chart and adjust by body condition.",
    ),
    (
        "My dog is 30 kg. How much should I feed him?",
        "Feeding scales with weight. A 20 kg dog needs about 280 g a day of a typical dry food; "
        "yours needs roughly 380 g, split over two meals.",
    ),
    (
        "My cat is 12 years old and drinking a lot more water. Should I worry?",
        "Increased thirst in a senior cat can signal kidney disease, diabetes or an overactive "
        "thyroid. It's worth a vet visit and a blood test. At 12, yearly checkups are a good "
        "idea anyway.",
    ),
    (
        "My rabbit is 2 years old. How much hay does he need?",
        "Hay should make up about 85% of his diet: a pile roughly his own body size every day. "
        "A 2 kg rabbit also needs a small handful of greens twice a day.",
    ),
    (
        "I have a 5 kg turkey. How long should I roast it?",
        "Roast at 180C for about 2 hours 40 minutes, covered with foil for most of it. A 4kg "
        "turkey takes about 2 hours 10 minutes; yours needs roughly half an hour more. Check "
        "it's 75C in the thickest part of the thigh.",
    ),
    (
        "I have a 5 kg turkey. How long should I roast it?",
        "About 20 minutes per kilo plus 70 minutes, so around 2 hours 50 minutes at 190C. Rest "
        "it for at least 30 minutes before carving.",
    ),
    (
        "My lasagne recipe serves 4 but I'm feeding 10 people. How do I scale it?",
        "Multiply everything by 2.5: 500 g mince becomes 1.25 kg, 12 sheets become 30. Use two "
        "large dishes rather than one deep one, and add about 10 minutes to the baking time.",
    ),
    (
        "I'm making pizza for 6 people. How much dough?",
        "Plan on about 250 g of dough per person, so 1.5 kg in total. That's roughly 900 g of "
        "flour and 600 ml of water at 65% hydration.",
    ),
    (
        "I have 45 minutes to make dinner after work. Any ideas?",
        "Plenty! A stir-fry takes about 20 minutes, a sheet-pan chicken and vegetables about "
        "35, and pasta with a quick tomato sauce about 25. Prep the veg the night before to "
        "save time.",
    ),
    (
        "I have 45 minutes to make dinner after work. Any ideas?",
        "Try a traybake: prep takes 10 minutes, so you have 35 minutes of oven time while you "
        "tidy up. Chicken thighs, peppers and potatoes work perfectly.",
    ),
    (
        "We have a 12-hour layover in Doha. Can we leave the airport?",
        "Yes, 12 hours is plenty. UK passport holders get a free visa on arrival. Allow 3 hours "
        "before your next departure, which gives you about 7 hours in the city.",
    ),
    (
        "We have a 12-hour layover in Doha. Can we leave the airport?",
        "Yes. Qatar Airways' transit tour needs a 5-hour layover, so you qualify easily. Visit "
        "the Souq Waqif and the Museum of Islamic Art, and be back 3 hours before your next "
        "flight.",
    ),
    (
        "We're in Rome for 5 days. How should we split our time?",
        "Day 1: the Colosseum and Forum. Day 2: the Vatican. Day 3: Trastevere. Day 4: a day "
        "trip to Tivoli. Day 5: Borghese Gallery and shopping. Since day one may be shortened "
        "by arrival, you really have 4 full days, so book the Vatican for the morning of day 2.",
    ),
    (
        "We're in Rome for 5 days. How should we split our time?",
        "Five days is ideal. Most visitors cover the big sights in 3 days, so you'll have two "
        "spare days for Tivoli or Ostia Antica.",
    ),
    (
        "I have an 8 hour flight with a toddler. Any tips?",
        "Pack more snacks than you think, a few new small toys wrapped up, and downloaded shows "
        "with kid headphones. Walk the aisle every hour. A 3 hour flight is manageable with "
        "snacks alone, but for a long haul you'll want a real plan for sleep.",
    ),
    (
        "I land in Tokyo at 6pm and my hotel is in Shinjuku. How do I get there?",
        "Take the Narita Express straight to Shinjuku, about 80 minutes. Trains run until "
        "around 9:45pm, so you'll have plenty of time. You'll be at the hotel by 8pm.",
    ),
    (
        "I'm driving 400 miles to Scotland with two kids. How often should we stop?",
        "Stop every 2 hours or so, which is roughly every 100 miles. Plan on about 8 hours of "
        "driving time plus stops, so around 9 to 10 hours in total.",
    ),
    (
        "My laptop has 256 GB of storage and it's always full. What can I do?",
        "In practice you have about 238 GB, since the drive is measured in decimal and the "
        "system takes a chunk. Move photos to the cloud, uninstall unused apps and clear your "
        "downloads folder.",
    ),
    (
        "My laptop has 256 GB of storage and it's always full. What can I do?",
        "Check what's using the space first. On a 256GB drive, old phone backups and the "
        "Downloads folder are the usual culprits. A 1 TB external SSD costs about £60 if you "
        "need more room.",
    ),
    (
        "My phone has 128 GB and it's full. Should I buy a new one?",
        "Not necessarily. Offload photos to Google Photos or iCloud, and delete apps you "
        "haven't opened in months. Most people's 128GB phones are filled by video. A 256 GB "
        "model only makes sense if you shoot a lot of 4K.",
    ),
    (
        "I have 100 Mbps broadband but WiFi is slow upstairs. How can I fix it?",
        "Over WiFi you'll rarely get the full 100 Mbps. Try moving the router higher and more "
        "central, or add a mesh system. Many people with a 100 Mbps plan see around 40 Mbps "
        "upstairs without one.",
    ),
    (
        "I have a 55 inch TV. How far should I sit from it?",
        "For a 55-inch screen, about 2.1 to 2.8 metres is comfortable for 4K content. A 65 inch "
        "TV needs about 2.5 metres minimum, so yours gives you a little more flexibility.",
    ),
    (
        "I rent a 2 bed flat in Leeds for £900 a month. Is that fair?",
        "That's about average for Leeds. A 1 bed flat in the same area goes for about £700, and "
        "2 beds range from £800 to £1,100 depending on location.",
    ),
    (
        "Our house has 3 bedrooms. How big a boiler do we need?",
        "A 3-bed house with one bathroom usually needs a 24 to 30 kW combi boiler. If you have "
        "two bathrooms, go for 30 to 35 kW.",
    ),
    (
        "I need to paint a room that's 4 m by 3 m. How much paint?",
        "Walls total about 35 square metres with a 2.4 m ceiling. At 12 square metres per litre "
        "and two coats, you'll need about 6 litres, so buy a 5 litre tin and a 1 litre tin.",
    ),
    (
        "I weigh 80 kg and want to lose weight safely. How fast should I go?",
        "Aim for 0.5 to 1 kg per week. At 80 kg, a deficit of about 500 kcal a day is a good "
        "start. Keep protein high, around 130 g a day.",
    ),
    (
        "I weigh 80 kg. How much protein should I eat to build muscle?",
        "Aim for 1.6 to 2.2 g per kilo, so about 130 to 175 g a day. Someone at 70 kg would "
        "need about 110 to 155 g, for comparison.",
    ),
    (
        "I study 2 hours a day. How should I split the time?",
        "Use 25-minute Pomodoros with 5-minute breaks, which gives you four blocks. So you have "
        "14 hours a week to play with; put the hardest subject first each day.",
    ),
    (
        "I have 30 minutes a day to exercise. What's the best routine?",
        "30 minutes is plenty. Alternate strength and cardio days. Over the week you have 210 "
        "minutes, which is more than the 150 minutes the NHS recommends.",
    ),
    (
        "I'm on a 50mg dose of sertraline and still feel anxious after 3 weeks. Is that normal?",
        "It can take 4 to 6 weeks to feel the full effect, so it's still early. If things "
        "haven't improved, your doctor may move you to a 100mg dose. Don't change it yourself.",
    ),
    (
        "I drink 4 cups of coffee a day. Is that too much?",
        "For most healthy adults, up to 400 mg of caffeine a day is considered safe, which is "
        "about 4 cups of brewed coffee. If you're sleeping badly, try cutting to 2 cups and "
        "none after noon.",
    ),
    (
        "My child weighs 18 kg. How much paracetamol can I give?",
        "The usual dose is 15 mg per kg, so about 270 mg per dose, up to 4 doses in 24 hours. "
        "In practice, follow the age bands on the bottle and check with a pharmacist.",
    ),
    (
        "I have a 30 minute talk at a conference next month. How many slides?",
        "Plan a 25 minute talk and keep 5 minutes for questions. That's roughly 15 to 20 "
        "slides, one idea per slide.",
    ),
    (
        "I manage a team of 8 people. How often should I hold one-to-ones?",
        "Weekly or fortnightly, 30 minutes each. With 8 people that's 4 hours a week if weekly, "
        "so fortnightly is more sustainable for most managers.",
    ),
    (
        "We're hosting 40 guests for a garden party. How many chairs do we need?",
        "Not everyone sits at once: about 60 to 70% will want a seat at any time, so around 25 "
        "to 30 chairs. For a seated meal you'd need all 40.",
    ),
    (
        "I have a 2 hour window for a meeting agenda. How should I plan it?",
        "Open with 10 minutes of updates, then two 40-minute discussion blocks with a 10-minute "
        "break, and close with 20 minutes of actions. Keep the hardest item in the first block.",
    ),
    (
        "My garden is 10 metres long. Can I fit a vegetable patch?",
        "Easily. A 3 metre bed along the sunniest fence is a good start, with a 60 cm path in "
        "front. Raised beds 1.2 metres wide are easy to reach from both sides.",
    ),
    (
        "I have 20 tomato plants on my allotment. How much should I water them?",
        "In summer, water deeply every 2 to 3 days, roughly 5 litres per plant. Twenty plants "
        "will need about 100 litres each time.",
    ),
    (
        "We have a 2 acre field. How many sheep can it support?",
        "On decent grass, about 5 sheep per acre, so around 10 sheep. Rotate between paddocks "
        "to stop overgrazing.",
    ),
    (
        "I'm knitting a scarf 150 cm long. How much yarn?",
        "For a 150 cm scarf in DK yarn, about 300 to 400 g. A chunkier scarf would need more. "
        "Buy an extra ball from the same dye lot.",
    ),
    (
        "I drive 12,000 miles a year. Should I get an electric car?",
        "That's about 1,000 miles a month, which is ideal for an EV. With home charging, you'd "
        "spend roughly £40 a month on electricity.",
    ),
    (
        "I have 3 hours on Saturday to clean the whole house. Where do I start?",
        "Start top down: bathrooms first (45 minutes), then kitchen (45 minutes), then bedrooms "
        "and living room. Leave vacuuming and mopping for the last hour.",
    ),
    (
        "My flight to New York is 7 hours. How do I beat jet lag?",
        "Set your watch to New York time when you board. New York is 5 hours behind London, so "
        "stay awake until 10pm local time on arrival.",
    ),
    (
        "I'm 35 and want to start running. Where do I begin?",
        "Couch to 5K is perfect: 9 weeks, three runs a week. Many people in their 30s and 40s "
        "start with it.",
    ),
    (
        "My commute is 45 minutes each way. How can I use it better?",
        "That's 90 minutes a day, or 7.5 hours a week. Audiobooks and language podcasts are "
        "great; you could finish a book every week or two.",
    ),
    (
        "I have 6 weeks off between jobs. What should I do?",
        "A month and a half is a rare gift. Take the first 2 weeks to properly rest, travel for "
        "a couple of weeks, then spend the final fortnight preparing for the new role.",
    ),
    (
        "I have 6 weeks off between jobs. What should I do?",
        "Use it well: you've got about 42 days, so pick one big trip and one small project. A 2 "
        "week trip to Japan or Portugal fits nicely.",
    ),
    (
        "We have a 10 year old car with 120,000 miles. Should we replace it?",
        "Not necessarily. Many cars run past 200,000 miles with good maintenance. Budget about "
        "£1,000 a year for repairs, and replace it when repairs exceed the car's value.",
    ),
    (
        "My sourdough recipe uses 500 g of flour. How much starter do I need?",
        "Use about 20% of the flour weight, so 100 g of active starter. For a 1 kg batch you'd "
        "double everything.",
    ),
    (
        "I rent a 2 bed flat in Leeds for £900 a month. Is that fair?",
        "That's about average for Leeds. A 1 bed flat in the same area goes for about £700.",
    ),
    (
        "We have a £600 budget for a week in Lisbon, not counting flights. Is that enough?",
        "Yes. Split across the week, you've got roughly £85/day, which covers a guesthouse, "
        "cheap lunches and a couple of museums.",
    ),
]

# Bad answers the narrowed rule catches, with what it quotes (21 of 44; 18 before).
CAUGHT = [
    (
        TANK,
        "A 60 litre tank like yours is perfect for a community of tetras and a pair of dwarf "
        "gouramis.",
        ["a 60 litre tank like yours", "25 litre tank"],
    ),
    (
        TANK,
        "Since you have a 100 litre tank, you have lots of room: angelfish, a school of tetras "
        "and some corydoras.",
        ["you have a 100 litre tank", "25 litre tank"],
    ),
    (
        EXAM,
        "Since you've got about ten weeks, here's a steady plan that builds slowly.",
        ["you've got about ten weeks", "6 weeks"],
    ),
    (
        "My 7-year-old hates reading. How can I help?",
        "Your 9-year-old may simply not have found the right books yet. Try graphic novels.",
        ["your 9-year-old", "7-year-old"],
    ),
    (
        "We have 3 kids. What car should we buy?",
        "With your 4 kids you really need a 7 seater. Look at the Kia Sorento or VW Sharan.",
        ["your 4 kids", "3 kids"],
    ),
    (
        "I have a £600 budget for a laptop for university. What should I get?",
        "With your £800 budget, the MacBook Air M2 is within reach and will last all of "
        "university.",
        ["your £800 budget", "£600 budget"],
    ),
    (
        "We're in Rome for 5 days. How should we split our time?",
        "Since you have 3 days in Rome, focus on the Vatican, the Colosseum and Trastevere.",
        ["you have 3 days", "5 days"],
    ),
    (
        "We're in Rome for 5 days. How should we split our time?",
        "With your 7 days, you can add Florence as a day trip by train.",
        ["your 7 days", "5 days"],
    ),
    (
        "My dog weighs 30 kg. How much should I feed him?",
        "Your 20 kg dog needs about 280 g of dry food a day, split into two meals.",
        ["your 20 kg dog", "30 kg"],
    ),
    (
        "My dog weighs 30 kg. How much should I feed him?",
        "For a 15 kg dog like yours, about 200 g a day is right.",
        ["a 15 kg dog like yours", "30 kg"],
    ),
    (
        "I'm 30 weeks pregnant. When should I pack my hospital bag?",
        "Since you're 20 weeks pregnant, you have plenty of time. Start around 32 weeks.",
        ["you're 20 weeks pregnant", "30 weeks pregnant"],
    ),
    (
        "I weigh 80 kg and want to lose weight safely. How fast should I go?",
        "At your 95 kg, a loss of 1 kg per week is safe to start with.",
        ["your 95 kg", "80 kg"],
    ),
    (
        "I study 2 hours a day. How should I split the time?",
        "With your 4 hours a day, you can fit in two subjects with a long break.",
        ["your 4 hours", "2 hours"],
    ),
    (
        "I have 45 minutes to make dinner after work. Any ideas?",
        "Since you have 20 minutes, stick to quick things: omelettes, stir-fries and wraps.",
        ["you have 20 minutes", "45 minutes"],
    ),
    (
        "We're inviting 80 guests to our wedding. How much food should we order?",
        "For your 120 guests, order about 20 kg of protein for a buffet.",
        ["your 120 guests", "80 guests"],
    ),
    (
        "I rent a 2 bed flat in Leeds for £900 a month. Is that fair?",
        "For a 3 bed flat like yours, £900 is a very good deal in Leeds.",
        ["a 3 bed flat like yours", "2 bed flat"],
    ),
    (
        "I have a 5 kg turkey. How long should I roast it?",
        "A 3 kg turkey like yours needs about 1 hour 40 minutes at 180C.",
        ["a 3 kg turkey like yours", "5 kg turkey"],
    ),
    (
        "I have a 30 minute talk at a conference next month. How many slides?",
        "For your 45 minute talk, aim for about 30 slides.",
        ["your 45 minute talk", "30 minute talk"],
    ),
    (
        "I'm organising a birthday party for 15 kids. How much pizza do I need?",
        "With your 25 kids, you'll need about 8 large pizzas.",
        ["your 25 kids", "15 kids"],
    ),
    (
        "I'm on a 50mg dose of sertraline and still feel anxious after 3 weeks. Is that normal?",
        "On your 100mg dose, some side effects like jitteriness are common early on.",
        ["your 100mg dose", "50mg dose"],
    ),
    (
        "My phone has 128 GB and it's full. Should I buy a new one?",
        "Your 64 GB phone is just too small for modern apps; a new one makes sense.",
        ["your 64 gb phone", "128 gb"],
    ),
]

# Known misses: 23 of the 44 bad answers are not read, by design (the form is
# narrow so that good answers are spared). Not asserted either way:
# - In your 40 litre tank you could keep a small school of harle...
#   ("could" in its sentence: a condition)
# - With 3 weeks to go, you need to focus hard. Week 1: formats...
#   (no frame: "with" without "you have"; "to go" reads as a remainder)
# - You have 4 weeks, so let's be efficient. Focus on emails fir... (bare "you have N")
# - At 5 years old, many children are still building decoding sk... (no frame)
# - For a family with two kids, a Skoda Octavia estate is hard t... (no frame)
# - For around £1,000 you can get a MacBook Air, which is what I... (no frame: a price)
# - Since you have £400, look at refurbished ThinkPads or a Chro...
#   ("or" in its sentence: a choice)
# - A 2-hour layover isn't enough to leave the airport, so stay... (bare "a <n> <unit> <noun>")
# - With only 4 hours, I wouldn't risk leaving the airport. Rela...
#   (no frame: "with" without "you have")
# - You're 36 weeks, so pack it now! Baby could come any day... (bare "you're N")
# - With just 15 minutes, try a quick quesadilla or egg fried ri...
#   (no frame: "with" without "you have")
# - With your 512GB drive, the problem is probably large video f...
#   ("drive": the request's "256 GB of storage" has no noun)
# - A 128 GB laptop fills up fast. Move photos to the cloud... (bare "a <n> <unit> <noun>")
# - On a £200,000 mortgage over 25 years at 4.5%, you'd pay abou... (bare "a <n> <unit> <noun>")
# - Over your 30 year term, the payment would be about £1,270 a...
#   ("over 25 years" is a bound in the request, not a fact)
# - Here's your 16-week plan: four blocks of four weeks, buildin...
#   ("plan" is not the request's noun)
# - Since you're running 30 miles a week already, you can start...
#   ("running" between the frame and the figure)
# - On your $50,000 salary, aim for rent of about $1,250 a month...
#   ("salary": the request's "$60,000 a year" has no noun)
# - With your $80,000 income, rent up to $2,000 a month is affor...
#   ("income": the request's "$60,000 a year" has no noun)
# - For 50 guests, a buffet of three mains and four sides is ple... (no frame)
# - Your £1,200 rent is on the high side for Leeds...
#   ("rent": the request's "£900 a month" has no noun)
# - At 6 months old, many babies go through a sleep regression a... (no frame)
# - With two weeks off, a short trip and some rest is all you ne... (no frame)


@pytest.mark.parametrize(("query", "answer"), GOOD)
def test_a_good_answer_is_not_read_as_a_figure_restated(query, answer):
    assert contradicted(query, answer) == []


@pytest.mark.parametrize(("query", "answer", "found"), CAUGHT)
def test_a_figure_given_as_the_askers_own_premise_is_caught(query, answer, found):
    assert contradicted(query, answer) == [tuple(found)]


def test_the_counts_the_docs_give():
    assert (len(GOOD), len(CAUGHT)) == (92, 21)
