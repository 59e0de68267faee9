"""Preference and fact tables for the training data (precision cross-encoder).

``CHOICES`` drives contrastive quads: "I want X" / "I do NOT want X" against answers
that give X or something else, so the same answer gets opposite labels depending on
the request. ``FACTS`` gives question -> right answer (1.0) / opposite answer (0.0).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Choice:
    """A request for (or against) one option, answered with one option."""

    domain: str
    wants: tuple[str, ...]
    nots: tuple[str, ...]
    answers: tuple[str, ...]
    options: tuple[str, ...]


C = Choice

CHOICES: tuple[Choice, ...] = (
    C(
        "images",
        (
            "I want a picture of {ax}",
            "Show me a photo of {ax}",
            "Draw me {ax}",
            "Generate an image of {ax}",
        ),
        (
            "I do NOT want a picture of {ax}",
            "Show me a photo of any animal except {ax}",
            "Draw me an animal, but not {ax}",
            "Generate an animal picture without {ax} in it",
            "I don't want {ax} in the picture",
        ),
        (
            "Here is a picture of {ay}.",
            "This photo shows {ay} lying in the grass.",
            "I drew {ay} sitting by a window.",
            "Here's the image: {ay} in a sunny garden.",
        ),
        (
            "dog",
            "cat",
            "horse",
            "parrot",
            "rabbit",
            "elephant",
            "owl",
            "goldfish",
            "tiger",
            "cow",
            "hamster",
            "penguin",
        ),
    ),
    C(
        "pets",
        (
            "Which pet should I adopt? I'd love {ax}",
            "I want to adopt {ax}",
            "Help me get ready to bring home {ax}",
        ),
        (
            "Which pet should I adopt? Not {ax}",
            "I want a pet, but I do not want {ax}",
            "Recommend a pet other than {ax}",
        ),
        (
            "Adopting {ay} is a great idea: they are affectionate and easy to care for.",
            "Get {ay}; set up a quiet corner for it at home.",
            "I'd go for {ay} from your local shelter.",
        ),
        ("dog", "cat", "rabbit", "guinea pig", "budgie", "tortoise", "ferret", "hamster"),
    ),
    C(
        "home",
        (
            "Paint my living room {x}",
            "I want {x} walls in the bedroom",
            "Suggest a {x} paint for the kitchen",
        ),
        (
            "Suggest a wall colour for the living room that is not {x}",
            "I don't want {x} walls in the bedroom",
            "Any kitchen colour except {x}, please",
        ),
        (
            "I'd go with {y} walls and white trim.",
            "A soft {y} would look lovely there.",
            "Choose a warm {y} paint with a matt finish.",
        ),
        ("blue", "green", "yellow", "grey", "white", "pink", "red", "beige", "purple"),
    ),
    C(
        "travel",
        (
            "I want to visit {x} this summer",
            "Plan my holiday in {x}",
            "We're going to {x} in June, what should we see",
        ),
        (
            "Where should I travel this summer? Not {x}",
            "Plan a holiday anywhere except {x}",
            "I've been to {x} too often, so suggest somewhere else",
        ),
        (
            "Go to {y}: spend three days in the capital and then head for the coast.",
            "{y} is lovely in summer; book a week and explore the old towns.",
            "I'd pick {y} for the food, the beaches and the history.",
        ),
        (
            "Italy",
            "Spain",
            "Greece",
            "France",
            "Portugal",
            "Croatia",
            "Norway",
            "Mexico",
            "Vietnam",
            "Morocco",
        ),
    ),
    C(
        "food",
        ("I want {x} food tonight", "Find me a {x} restaurant", "Cook me something {x}"),
        (
            "I don't want {x} food tonight",
            "Find me a restaurant that isn't {x}",
            "Cook me anything but {x} food",
        ),
        (
            "Try the {y} place on the corner; their set menu is great.",
            "How about {y} tonight? I booked a table for eight.",
            "Here's a {y} dinner you can make in thirty minutes.",
        ),
        (
            "Indian",
            "Thai",
            "Italian",
            "Mexican",
            "Chinese",
            "Japanese",
            "Greek",
            "Lebanese",
            "French",
            "Korean",
        ),
    ),
    C(
        "music",
        ("Play some {x} music", "Make me a {x} playlist", "I'm in the mood for {x}"),
        (
            "Play anything but {x}",
            "Make a playlist with no {x} at all",
            "I am not in the mood for {x}, play something else",
        ),
        (
            "Now playing a {y} playlist.",
            "Here's an hour of {y} for you.",
            "Queued up: the best {y} tracks of the year.",
        ),
        (
            "jazz",
            "rock",
            "classical",
            "country",
            "hip hop",
            "reggae",
            "techno",
            "folk",
            "metal",
            "blues",
        ),
    ),
    C(
        "code",
        ("Write hello world in {x}", "Show me a loop in {x}", "I need this script in {x}"),
        (
            "Write hello world in any language other than {x}",
            "Show me a loop, but never use {x}",
            "I need this script, and not in {x}",
        ),
        (
            "Here it is in {y}.",
            "This version is written in {y}.",
            "I wrote the script in {y} for you.",
        ),
        ("Python", "JavaScript", "Rust", "Go", "Java", "C++", "Ruby", "PHP", "Kotlin"),
    ),
    C(
        "travel",
        (
            "I want to get to Paris by {x}",
            "Book my trip to Berlin by {x}",
            "How do I travel to Rome by {x}",
        ),
        (
            "How can I get to Paris without going by {x}",
            "Book my trip to Berlin, but not by {x}",
            "I never travel by {x}; how do I get to Rome",
        ),
        (
            "Take the {y}: it is the easiest option from the centre.",
            "I booked you a seat on the {y} leaving at nine.",
            "Going by {y} is the best choice for that route.",
        ),
        ("train", "plane", "bus", "car", "ferry", "bike", "coach"),
    ),
    C(
        "drinks",
        ("Bring me {ax}", "I'd like {ax} with lunch", "Order me {ax}"),
        (
            "Bring me a drink, just not {ax}",
            "I don't want {ax} with lunch",
            "Order me something other than {ax}",
        ),
        ("Here is {ay}.", "I ordered you {ay}.", "Your {y} is on its way."),
        (
            "coffee",
            "tea",
            "lemonade",
            "beer",
            "orange juice",
            "milkshake",
            "espresso",
            "hot chocolate",
            "cola",
        ),
    ),
    C(
        "sport",
        ("I want to try {x}", "Find me a {x} club", "Teach me the basics of {x}"),
        (
            "Suggest a sport that isn't {x}",
            "Find me a club, but not for {x}",
            "I do NOT want to do {x}; what else can I try",
        ),
        (
            "You could join a {y} club near you.",
            "Try {y}: beginners' sessions are on Tuesdays.",
            "Here are the basics of {y} to get started.",
        ),
        (
            "tennis",
            "swimming",
            "football",
            "climbing",
            "rowing",
            "judo",
            "golf",
            "badminton",
            "cycling",
        ),
    ),
    C(
        "films",
        ("Recommend a {x} film", "I want to watch a {x} tonight", "Suggest a good {x}"),
        (
            "Recommend a film, but not a {x}",
            "I don't want to watch a {x} tonight",
            "Suggest a film that is anything other than a {x}",
        ),
        (
            "Watch this {y}: it has great reviews.",
            "Tonight's pick is a classic {y}.",
            "I'd recommend a {y} from last year.",
        ),
        (
            "horror film",
            "comedy",
            "documentary",
            "thriller",
            "romance",
            "western",
            "musical",
            "cartoon",
        ),
    ),
    C(
        "gifts",
        ("Send her {x}", "Order a bouquet of {x}", "I want {x} for the table"),
        (
            "Send her flowers, but no {x}",
            "Order a bouquet without {x}",
            "I want flowers for the table, anything except {x}",
        ),
        (
            "I ordered a bunch of {y}.",
            "A bouquet of {y} is on its way.",
            "Here are some fresh {y} for the table.",
        ),
        ("roses", "tulips", "lilies", "sunflowers", "daisies", "orchids", "peonies"),
    ),
)


#: (question, right answer, opposite answer)
FACTS: tuple[tuple[str, str, str], ...] = (
    (
        "At what temperature does water boil at sea level?",
        "At sea level water boils at 100 degrees Celsius.",
        "Water boils at 50 degrees Celsius at sea level.",
    ),
    (
        "Is the sun a star?",
        "Yes, the sun is a star, a ball of hot gas.",
        "No, the sun is not a star; it is a planet.",
    ),
    (
        "How many legs does a spider have?",
        "A spider has eight legs.",
        "Spiders have six legs, like insects.",
    ),
    (
        "Which planet is closest to the sun?",
        "Mercury is the planet nearest the sun.",
        "Neptune is the closest planet to the sun.",
    ),
    (
        "Do whales breathe air?",
        "Yes, whales are mammals and must surface to breathe air.",
        "No, whales breathe water through gills.",
    ),
    (
        "What is the largest ocean on Earth?",
        "The Pacific is the biggest ocean.",
        "The Indian Ocean is the largest ocean on Earth.",
    ),
    (
        "Who wrote Romeo and Juliet?",
        "William Shakespeare wrote Romeo and Juliet.",
        "Romeo and Juliet was written by Charles Dickens.",
    ),
    (
        "Is a tomato a fruit?",
        "Botanically, yes: a tomato is a fruit.",
        "No, a tomato is not a fruit in any sense.",
    ),
    (
        "How many continents are there?",
        "There are seven continents.",
        "There are only three continents.",
    ),
    (
        "What gas do plants absorb from the air?",
        "Plants take in carbon dioxide for photosynthesis.",
        "Plants absorb only oxygen and release carbon dioxide in sunlight.",
    ),
    (
        "Can penguins fly?",
        "No, penguins cannot fly; they swim instead.",
        "Yes, penguins fly long distances every winter.",
    ),
    (
        "What is the freezing point of water?",
        "Water freezes at 0 degrees Celsius.",
        "Water freezes at 30 degrees Celsius.",
    ),
    (
        "Is the Great Wall of China in Japan?",
        "No, the Great Wall is in northern China.",
        "Yes, the Great Wall of China is in Japan.",
    ),
    (
        "What is the capital of France?",
        "Paris is the capital of France.",
        "The capital of France is Lyon.",
    ),
    ("How many days are in a leap year?", "A leap year has 366 days.", "A leap year has 360 days."),
    (
        "Does the moon produce its own light?",
        "No, the moon reflects light from the sun.",
        "Yes, the moon makes its own light like a lamp.",
    ),
    (
        "What is the chemical symbol for gold?",
        "Gold's symbol is Au.",
        "The chemical symbol for gold is Gd.",
    ),
    ("Are bats mammals?", "Yes, bats are mammals that can fly.", "No, bats are birds."),
    ("What is 7 times 8?", "7 times 8 is 56.", "7 times 8 equals 63."),
    (
        "What is the square root of 81?",
        "The square root of 81 is 9.",
        "The square root of 81 is 8.",
    ),
    (
        "Is zero an even number?",
        "Yes, zero is even because it divides by two.",
        "No, zero is an odd number.",
    ),
    (
        "How many minutes are in an hour?",
        "An hour has sixty minutes.",
        "There are one hundred minutes in an hour.",
    ),
    (
        "Which is heavier, a kilo of feathers or a kilo of iron?",
        "They weigh the same: both are one kilogram.",
        "The kilo of iron is much heavier than the kilo of feathers.",
    ),
    (
        "Is Mount Everest the tallest mountain above sea level?",
        "Yes, Everest is the highest mountain above sea level.",
        "No, Everest is a small hill in Scotland.",
    ),
    ("Do humans have four lungs?", "No, people have two lungs.", "Yes, humans have four lungs."),
    (
        "What language is mostly spoken in Brazil?",
        "Most Brazilians speak Portuguese.",
        "The main language of Brazil is Spanish.",
    ),
    (
        "Is the Amazon a river in South America?",
        "Yes, the Amazon flows across South America.",
        "No, the Amazon is a river in Europe.",
    ),
    (
        "What is the main ingredient of guacamole?",
        "Guacamole is made mainly from avocado.",
        "Guacamole is mostly made of potatoes.",
    ),
    (
        "Is it safe to look directly at the sun?",
        "No, looking straight at the sun can damage your eyes.",
        "Yes, staring at the sun is perfectly safe for your eyes.",
    ),
    (
        "Does ice float on water?",
        "Yes, ice is less dense than water, so it floats.",
        "No, ice sinks straight to the bottom.",
    ),
    (
        "How many sides does a hexagon have?",
        "A hexagon has six sides.",
        "A hexagon has eight sides.",
    ),
    (
        "Who painted the Mona Lisa?",
        "Leonardo da Vinci painted the Mona Lisa.",
        "The Mona Lisa was painted by Vincent van Gogh.",
    ),
    (
        "Is sound faster than light?",
        "No, light travels far faster than sound.",
        "Yes, sound is faster than light.",
    ),
    ("What do bees make?", "Bees make honey and wax.", "Bees make milk."),
    (
        "Should you unplug a toaster before cleaning it?",
        "Yes, always unplug it first so you can't get a shock.",
        "No, keep it plugged in while you clean inside it.",
    ),
    (
        "Is Python a programming language?",
        "Yes, Python is a widely used programming language.",
        "No, Python is only a kind of snake and not a language.",
    ),
)


#: (request, sound advice, advice that achieves the opposite or dismisses the goal)
ADVICE: tuple[tuple[str, str, str], ...] = (
    (
        "How do I keep bread fresh for longer?",
        "Store it cut side down in a bread bin or paper bag, and freeze slices you won't eat"
        " within two days.",
        "Keep it in the fridge uncovered; it goes stale fastest there.",
    ),
    (
        "How can I make my phone battery last all day?",
        "Lower the screen brightness, turn off background refresh and use battery saver mode.",
        "Set the screen to full brightness and keep every app running in the background.",
    ),
    (
        "How do I get a red wine stain out of a carpet?",
        "Blot it straight away, then dab with cold water and a little washing-up liquid.",
        "Rub it hard with hot water so the stain sets into the fibres.",
    ),
    (
        "How do I cook fluffy rice?",
        "Rinse the rice, use about 1.5 cups of water per cup, simmer covered and let it rest"
        " ten minutes.",
        "Stir it constantly in lots of water for forty minutes until it turns to mush.",
    ),
    (
        "How can I lower my electricity bill?",
        "Switch to LED bulbs, turn appliances off at the wall and wash clothes at 30 degrees.",
        "Leave the lights and heaters on all day and run the dryer for every load.",
    ),
    (
        "How do I protect my skin in strong sun?",
        "Use SPF 30 or higher, reapply every two hours, and stay in the shade at midday.",
        "Skip sunscreen and lie in the midday sun as long as possible.",
    ),
    (
        "How do I stop my cast iron pan from rusting?",
        "Dry it on the hob straight after washing and rub in a thin layer of oil.",
        "Leave it soaking in water overnight in the sink.",
    ),
    (
        "How can I help a shy rescue dog settle in?",
        "Give it a quiet space, keep routines predictable and let it approach you in its own time.",
        "Invite lots of guests over and make it greet everyone on the first day.",
    ),
    (
        "How do I keep my laptop from overheating?",
        "Use it on a hard surface, keep the vents clear and clean out dust now and then.",
        "Use it on a thick duvet and cover the vents to keep the dust out.",
    ),
    (
        "How can I improve my home wifi signal?",
        "Put the router high up in a central spot, away from thick walls and microwaves.",
        "Hide the router in a metal cupboard in the basement.",
    ),
    (
        "How do I drive safely in thick fog?",
        "Slow down, use dipped headlights or fog lights and leave a big gap to the car in front.",
        "Drive fast with full beams on so you get out of the fog sooner.",
    ),
    (
        "How can I save water at home?",
        "Take shorter showers, fix dripping taps and only run full loads in the dishwasher.",
        "Leave the tap running while you brush and water the lawn at noon every day.",
    ),
    (
        "How do I stop my glasses fogging up with a mask?",
        "Pinch the mask's nose wire tight and wash the lenses with a drop of soapy water.",
        "Wear the mask loosely below your nose so your breath goes straight up.",
    ),
    (
        "How do I make coffee taste less bitter?",
        "Use a coarser grind, water just off the boil and a shorter brewing time.",
        "Grind it finer and boil it for ten minutes to bring out more bitterness.",
    ),
    (
        "How do I stop my bike being stolen?",
        "Use a D-lock through the frame and back wheel onto a fixed stand in a busy spot.",
        "Leave it unlocked in a quiet alley overnight.",
    ),
    (
        "How can I get my kids to eat more vegetables?",
        "Let them help cook, serve small portions often and put vegetables in sauces they like.",
        "Never offer them vegetables; give them crisps instead.",
    ),
    (
        "How do I choose a strong password?",
        "Use a long passphrase of four or more random words and a password manager.",
        "Use your birthday and reuse it on every site.",
    ),
    (
        "How should I back up my photos?",
        "Keep three copies: on your computer, an external drive and a cloud service.",
        "Keep a single copy on your phone and delete everything else.",
    ),
    (
        "How do I remove a splinter?",
        "Clean the area, then pull it out in the direction it went in with sterile tweezers.",
        "Push it deeper with your thumb and leave it there.",
    ),
    (
        "How can I calm my nerves before an exam?",
        "Sleep well, eat a proper breakfast, arrive early and take slow deep breaths.",
        "Stay up all night, drink four coffees and run in at the last second.",
    ),
    (
        "How do I stop cut avocado going brown?",
        "Brush it with lemon juice and wrap it tightly in cling film in the fridge.",
        "Leave it open on the counter in the sun.",
    ),
    (
        "How do I fix a squeaky door hinge?",
        "Lift the pin, coat it with a little oil or petroleum jelly and tap it back in.",
        "Slam the door harder until the squeak goes away.",
    ),
    (
        "How do I unblock a sink?",
        "Try a plunger, then baking soda and vinegar followed by hot water, or clean the trap.",
        "Pour cooking fat down it and leave it for a week.",
    ),
    (
        "How can I learn to touch type?",
        "Practise fifteen minutes a day on a typing tutor, keeping your eyes off the keys.",
        "Keep looking at the keys and type with two fingers; speed comes by itself.",
    ),
    (
        "How do I keep strawberries fresh?",
        "Don't wash them until you eat them, and keep them dry in a single layer in the fridge.",
        "Wash them all, then seal them wet in a plastic bag at room temperature.",
    ),
    (
        "How do I light a fire in a wood burner safely?",
        "Open the vents, use dry kindling and firelighters, and never leave it unattended.",
        "Pour petrol on damp logs and close all the vents.",
    ),
    (
        "How can I get better at remembering names?",
        "Repeat the name when you hear it, use it in conversation and link it to a picture.",
        "Don't listen when people introduce themselves.",
    ),
    (
        "How do I keep cut flowers fresh?",
        "Trim the stems at an angle, change the water every two days and keep them out of the sun.",
        "Leave them in the same water for weeks on a sunny windowsill.",
    ),
    (
        "How can I reduce food waste?",
        "Plan meals, check the fridge before shopping and freeze leftovers.",
        "Buy twice what you need and throw out anything past its best-before date.",
    ),
    (
        "How do I keep my car battery healthy in winter?",
        "Drive for at least twenty minutes a week and switch off lights before you start it.",
        "Leave the headlights on overnight and only make short trips.",
    ),
    (
        "How do I write a clear meeting agenda?",
        "List the topics with a goal and time for each, and share it a day before.",
        "Don't plan anything; just see what people want to talk about.",
    ),
    (
        "How do I keep a sourdough starter alive?",
        "Feed it flour and water daily at room temperature, or weekly if kept in the fridge.",
        "Never feed it and seal it in a jar in a hot cupboard.",
    ),
    (
        "How do I stay focused while reading?",
        "Read in a quiet place, put your phone away and take short notes as you go.",
        "Read with the TV on and check your phone after every page.",
    ),
    (
        "How can I make a small room look bigger?",
        "Use light colours, a large mirror and furniture with visible legs.",
        "Paint it dark brown and fill it with bulky furniture.",
    ),
)

#: More yes/no facts where the right answer is "No" (so "No" is not read as contradiction).
FACTS_NO: tuple[tuple[str, str, str], ...] = (
    (
        "Is a spider an insect?",
        "No, spiders are arachnids, not insects.",
        "Yes, a spider is an insect.",
    ),
    (
        "Is the Pacific Ocean freshwater?",
        "No, the Pacific is salt water.",
        "Yes, the Pacific is a freshwater ocean.",
    ),
    ("Do snakes have legs?", "No, snakes have no legs.", "Yes, snakes have four short legs."),
    (
        "Is Tokyo the capital of China?",
        "No, Tokyo is the capital of Japan; Beijing is China's capital.",
        "Yes, Tokyo is the capital of China.",
    ),
    ("Is a dolphin a fish?", "No, dolphins are mammals.", "Yes, dolphins are fish."),
    (
        "Is glass a good conductor of electricity?",
        "No, glass is an insulator.",
        "Yes, glass conducts electricity very well.",
    ),
    (
        "Can ostriches fly?",
        "No, ostriches are too heavy to fly.",
        "Yes, ostriches fly south every winter.",
    ),
    ("Is 17 an even number?", "No, 17 is odd.", "Yes, 17 is even."),
    (
        "Does the sun orbit the Earth?",
        "No, the Earth orbits the sun.",
        "Yes, the sun goes around the Earth.",
    ),
    (
        "Is coffee made from tea leaves?",
        "No, coffee comes from roasted coffee beans.",
        "Yes, coffee is brewed from tea leaves.",
    ),
    (
        "Are tomatoes poisonous to eat?",
        "No, ripe tomatoes are safe and healthy.",
        "Yes, tomatoes are poisonous.",
    ),
    (
        "Is Mount Kilimanjaro in Asia?",
        "No, Kilimanjaro is in Tanzania, in Africa.",
        "Yes, Kilimanjaro is in Asia.",
    ),
)

#: (creative request, an output that fits it, an output that breaks the request)
CREATIVE: tuple[tuple[str, str, str], ...] = (
    (
        "Suggest a name for my grey kitten.",
        "How about Pebble? Or Smokey, or Ash.",
        "Here is a recipe for vegetable soup.",
    ),
    (
        "Give me a name for a sailing boat, nothing with 'sea' in it.",
        "Call her Wind Dancer.",
        "Call her Sea Breeze.",
    ),
    (
        "Write a slogan for a bicycle shop.",
        "Two wheels, endless roads.",
        "The best pizza in town, delivered hot.",
    ),
    (
        "A title for my blog about houseplants, no puns.",
        "Notes From a Small Jungle",
        "Leaf Me Alone: a punny plant blog",
    ),
    (
        "Write a one-line joke about cats.",
        "My cat only cares about two things: the food bowl and knocking it off the table.",
        "The stock market fell by two percent today.",
    ),
    (
        "Write a four-line poem about snow that doesn't rhyme.",
        "The street goes quiet, / cars wear white coats, / a child's boot prints / lead to the"
        " bakery door.",
        "The snow is white, it falls at night, / it makes the town look clean and bright.",
    ),
    (
        "Give me a tagline for a dentist.",
        "Gentle care for brighter smiles.",
        "Fresh flowers delivered to your door.",
    ),
    (
        "Write a short riddle for children.",
        "I have hands but cannot clap. What am I? A clock!",
        "Quarterly revenue grew by eight percent year on year.",
    ),
    (
        "Suggest three names for a fantasy kingdom.",
        "Eldoria, Valemont and the Ashen Reach.",
        "Apples, pears and plums.",
    ),
    (
        "Write a thank-you card message for a teacher, without using the word 'thanks'.",
        "You made every Monday worth getting up for. We will miss your lessons.",
        "Thanks so much for everything, thanks again and thanks once more!",
    ),
    (
        "Write an opening line for a mystery novel.",
        "The last train left at midnight, but the conductor swore someone stayed on board.",
        "Preheat the oven to 200 degrees and grease a baking tray.",
    ),
    ("Make up a name for a coffee shop.", "The Daily Grind", "Pete's Tyre and Exhaust"),
    (
        "Write a short birthday wish for a colleague, no mention of age.",
        "Happy birthday, Lena! Wishing you a year full of good coffee and great ideas.",
        "Happy 50th birthday, Lena - half a century old!",
    ),
    (
        "Write a motto for a running club.",
        "Every mile starts with one step.",
        "Our library is open Monday to Friday.",
    ),
    (
        "Suggest a name for a pet goldfish.",
        "Bubbles, Finn or Captain Orange.",
        "Rex, a great name for a big dog.",
    ),
    (
        "Write a haiku about the moon.",
        "Pale coin in the pond / the frogs are counting its light / clouds take it away",
        "The moon orbits Earth every 27.3 days at an average distance of 384,400 km.",
    ),
    (
        "Write a headline for an article about a town's new library.",
        "Pages and Possibilities: Millbrook Opens Its New Library",
        "Local Team Wins Cup Final in Extra Time",
    ),
    (
        "Give me a two-sentence horror story.",
        "I heard my mother call me from the kitchen. Then I got a text from her saying she was"
        " still at work.",
        "The picnic was lovely and everyone went home happy.",
    ),
    (
        "Describe autumn in one sentence without mentioning leaves.",
        "The air turns crisp, apples ripen and the evenings draw in early.",
        "Autumn leaves fall from the trees in red and gold leaves.",
    ),
    (
        "Write a short toast for a retirement party.",
        "To Alan: forty years of hard work, and now a lifetime of long lunches. Enjoy every"
        " minute!",
        "Please remember to submit your timesheets by Friday.",
    ),
)

#: Yes/no facts where the right answer is "Yes" (balances ``FACTS_NO``).
FACTS_YES: tuple[tuple[str, str, str], ...] = (
    ("Is Madrid in Spain?", "Yes, Madrid is Spain's capital.", "No, Madrid is in Italy."),
    (
        "Is a lemon sour?",
        "Yes, lemons taste sour because of citric acid.",
        "No, lemons are not sour at all.",
    ),
    (
        "Do cats have whiskers?",
        "Yes, cats use their whiskers to sense their surroundings.",
        "No, cats have no whiskers.",
    ),
    (
        "Is the Nile in Africa?",
        "Yes, the Nile flows through north-east Africa.",
        "No, the Nile is in Canada.",
    ),
    ("Is 12 divisible by 3?", "Yes, 12 divided by 3 is 4.", "No, 12 cannot be divided by 3."),
    (
        "Do trees produce oxygen?",
        "Yes, trees release oxygen during photosynthesis.",
        "No, trees only use up oxygen.",
    ),
    ("Is gold a metal?", "Yes, gold is a metal.", "No, gold is a kind of plastic."),
    (
        "Is Venus a planet?",
        "Yes, Venus is the second planet from the sun.",
        "No, Venus is a moon of Jupiter.",
    ),
    (
        "Does water expand when it freezes?",
        "Yes, ice takes up more space than liquid water.",
        "No, water shrinks when it freezes.",
    ),
    (
        "Is the Atlantic between Europe and America?",
        "Yes, the Atlantic lies between Europe and Africa to the east and the Americas to the"
        " west.",
        "No, the Atlantic is between India and Australia.",
    ),
    (
        "Are strawberries red when ripe?",
        "Yes, ripe strawberries are red.",
        "No, ripe strawberries are blue.",
    ),
    (
        "Is Berlin the capital of Germany?",
        "Yes, Berlin is Germany's capital.",
        "No, the capital of Germany is Vienna.",
    ),
)

#: Answer frames that fit any task: the answer does not restate the request.
GENERIC_FRAMES: tuple[str, ...] = (
    "You'll want {items}.",
    "Go with {items}.",
    "I'd suggest {items}.",
    "Try {items}.",
    "Here's what I'd do: {items}.",
    "My pick: {items}.",
    "{items}.",
)
