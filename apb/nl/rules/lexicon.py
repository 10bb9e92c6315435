"""The words the rules know: prepositions, adjectives, verbs, nouns by kind (agents, vehicles, places, ...),
abbreviations and the prepositions that go with verbs and adjectives. Data only; the rules read it."""

from __future__ import annotations


def word_set(text: str) -> frozenset[str]:
    """The words of a space-separated list, as a frozenset."""
    return frozenset(text.split())



ABBREVIATIONS: dict[str, tuple[str, ...]] = {
    "conn": ("connected",), "loc": ("location",), "locs": ("locations",), "obj": ("object",), "ob": ("object",),
    "avail": ("available",), "pos": ("position",), "cur": ("current",), "curr": ("current",),
    "prev": ("previous",), "dest": ("destination",), "src": ("source",), "num": ("number",), "eq": ("equal",),
    "neq": ("not", "equal"),
    "destin": ("destination",), "robby": ("robot",), "veh": ("vehicle",), "pkg": ("package",), "tgt": ("target",),
    "img": ("image",), "dir": ("direction",), "qty": ("quantity",), "adj": ("adjacent",),
    "calib": ("calibration",), "inst": ("instrument",), "wp": ("waypoint",), "rm": ("room",), "pt": ("point",),
    "lvl": ("level",), "init": ("initial",), "pwr": ("power",), "cnt": ("count",), "res": ("resource",),
}
PREPOSITIONS = word_set("at on in into onto inside outside under over above below near beside behind from to with "
                    "without of for by between across through towards toward within via off upon beneath along "
                    "against around aboard up down")
# the noun after these is where the argument is: 'at-ferry ?l' reads "the ferry is at {l}"
LOCATIVE = word_set("at near beside by")
DIRECTIONS = {"up": "above", "down": "below", "above": "above", "below": "below", "left": "to the left of",
              "right": "to the right of", "north": "north of", "south": "south of", "east": "east of",
              "west": "west of", "northeast": "northeast of", "northwest": "northwest of",
              "southeast": "southeast of", "southwest": "southwest of", "under": "under", "over": "over",
              "behind": "behind", "beneath": "beneath"}
DIRECTION_ADVERBS = word_set("up down left right north south east west forward forwards backward backwards")
ADJECTIVES = word_set(
    "clear free empty full open closed shut available busy idle ready visible dirty clean hot cold warm wet dry lit "
    "bright dark safe unsafe alive dead active inactive done new old current next previous same different equal "
    "adjacent valid invalid true false good bad big small large soft hard heavy high low blocked reachable "
    "accessible solid liquid ripe raw fresh sick healthy happy hungry thirsty tired asleep awake awake sober "
    "upright flat smooth rough empty whole broken random initial final first last other near far close "
    "compatible identical similar opposite fit unfit able unable present absent occupied vacant ok online allergic "
    "immune afraid aware capable responsible suitable "
    "offline vertical horizontal inverted straight diagonal movable static mobile usable")
IRREGULAR_PARTICIPLES = word_set(
    "rewound done taken broken held built shown known seen written sold bought found lost made hidden given driven "
    "frozen stolen chosen worn torn drawn grown thrown fallen eaten beaten sent spent won hung caught taught "
    "brought thought fed led paid laid wound bound ground stuck struck spun split shut set put cut")
NOT_PARTICIPLES = word_set("bed red shed sled seed need feed speed weed reed hundred bred sacred naked wicked bleed "
                       "breed greed creed steed tweed embed")
# participles that describe something that happened: "{x} has been visited"
EVENT_PARTICIPLES = word_set(
    "visited communicated delivered served reached achieved collected consumed used processed seen sent done "
    "completed finished scanned sampled photographed checked inspected explored analysed analyzed taken eaten "
    "detonated fired recorded reported transmitted uploaded downloaded printed signed approved graded tested "
    "measured counted sorted treated cured vaccinated harvested watered fed cleaned washed emptied")
# binary participles/adjectives and the preposition before their second argument
ADJECTIVE_PREPOSITIONS = {
    "connected": "to", "adjacent": "to", "next": "to", "equal": "to", "identical": "to", "similar": "to",
    "close": "to", "attached": "to", "linked": "to", "joined": "to", "assigned": "to", "allocated": "to",
    "married": "to", "related": "to", "parallel": "to", "opposite": "to", "visible": "from", "reachable": "from",
    "accessible": "from", "different": "from", "far": "from", "compatible": "with", "equipped": "with",
    "paired": "with", "filled": "with", "covered": "with", "located": "at", "stored": "in", "contained": "in",
    "loaded": "in", "parked": "at", "placed": "on", "mounted": "on", "installed": "on", "painted": "",
    "colored": "", "coloured": "", "owned": "by", "held": "by", "carried": "by", "occupied": "by",
    "near": "", "calibrated": "for", "ready": "for", "available": "for", "used": "with", "allergic": "to",
    "immune": "to", "afraid": "of", "aware": "of", "capable": "of", "responsible": "for", "suitable": "for",
}
# adjectives that take their noun as an object: (allergic-gluten ?c) "{c} is allergic to gluten"
OBJECT_ADJECTIVES = word_set("allergic immune afraid aware capable responsible suitable")
# verbs known only to split action names without separators ('pickup' -> pick up)
ACTION_VERBS = word_set("pick put take drop get set turn switch lift load unload push pull throw move go clean walk "
                    "drive fly sail board debark stack unstack paint fire detonate sample calibrate communicate "
                    "navigate open close lock unlock start stop reset rewind undo fill pour mix bake wash cook cut "
                    "serve grab release hold carry climb jump enter leave exit visit charge")
# verbs whose second object may be a vehicle: "load crate {c} into truck {t}"
CONTAINER_VERBS = word_set("load unload insert remove board")
ADJECTIVE_SUFFIXES = ("able", "ible", "ful", "less", "ous", "ical")
VERBS = word_set(
    "support contain carry hold have need require connect match fit see reach cover touch face link serve use own "
    "know want like love hate include overlap precede follow block occupy point lead belong drive go wear "
    "fill feed guard protect watch control operate exceed share visit hide accept allow contact hear exist "
    "produce consume store transport deliver pull push unlock lock open close enter leave")
NOT_GERUNDS = word_set("thing ring king wing string spring ceiling building morning evening nothing something anything "
                   "everything sibling ping bing sing sting swing sling bring during ding")
GERUND_PREPOSITIONS = {"pointing": "at", "looking": "at", "aiming": "at", "waiting": "for", "heading": "to",
                       "going": "to", "moving": "to", "travelling": "to", "traveling": "to", "listening": "to",
                       "talking": "to", "working": "on", "standing": "on", "sitting": "on", "lying": "on"}
SUBJECT_VERBS = word_set("have has can")
NOUNS = word_set(
    "robot agent hand arm gripper hoist crane player person man woman worker operator driver pilot passenger "
    "truck airplane plane aeroplane ferry ship boat car rover satellite drone vehicle train bus taxi elevator lift "
    "tram helicopter van cart table floor ground shelf box bin bag container basket pan oven pot bowl cup plate "
    "location place position waypoint tile cell square spot point node site depot distributor airport station "
    "stop field junction corner door room city area region zone country town building house hall sector world "
    "mode direction key lock shape block crate pallet surface package parcel object item thing ball egg flour "
    "soap cake souffle ingredient counter movie chips dip pop cheese crackers gold bomb laser rock soil sample "
    "image data camera instrument lander channel store power target calibration analysis objective color colour "
    "paint goal home base start end number level fuel water food energy board side top bottom left right front "
    "back way road street path bridge gate wall window light switch button lamp lever door sensor battery "
    "charger dock port cargo load package letter mail message order customer patient doctor nurse child bed "
    "tray glass bottle cocktail shot shaker ingredient dispenser machine tool part piece card deck pile stack "
    "peg disc disk tower hole grid map cup sock shoe shirt tree plant seed fruit apple bread meal dish sandwich "
    "content contents vertex edge graph line segment ramp stair stairs step exit entrance shelf drawer cabinet "
    "fridge stove sink faucet tap mug knife fork spoon spatula whisk bowl jar can lid")
MASS_NOUNS = word_set("gold water soil rock sand power fuel food data information cheese dip pop flour soap paint oil "
                      "gas air money energy bread milk coffee tea rice salt sugar imaging wood metal iron steel stone "
                      "coal ice snow fire smoke light electricity dough batter meat wine beer juice")
SINGULAR_S = word_set("gas bus lens series species news physics canvas atlas boss glass analysis axis status campus "
                  "class mass grass chess dress press process address access success bonus virus cactus status "
                  "bus chaos kiss loss boss")
NO_ARTICLE = word_set("zero one two three four five six seven eight nine ten home board rest work top bottom "
                  "other nothing something everything anything")
AGENT_NOUNS = word_set("robot agent hand arm gripper hoist crane player person man woman worker operator driver pilot "
                   "me i")
VEHICLE_NOUNS = word_set("truck airplane plane aeroplane ferry ship boat rover satellite drone vehicle train bus taxi "
                     "elevator lift tram helicopter van cart")
PLACE_NOUNS = word_set("location place position waypoint tile cell square spot point node site depot distributor "
                   "airport station stop field junction corner door floor table ground shelf goal home base start "
                   "end vertex")
REGION_NOUNS = word_set("city room area region zone country town building house hall sector world mode language format")
CONTAINER_NOUNS = word_set("store box bin bag container basket pan oven pot bowl cup truck airplane plane ferry cart "
                       "drawer cabinet fridge jar glass bottle shaker")
RECEIVER_NOUNS = word_set("lander base station receiver antenna hub server customer")
ORIENTATION_NOUNS = word_set("direction heading orientation")
# nouns whose implicit mention is unique: "the robot is at {x}", "the hand is empty"
UNIQUE_NOUNS = AGENT_NOUNS | VEHICLE_NOUNS | word_set("table floor ground counter movie sun sky world")
# nouns after an action verb that take an "of" complement: "take an image of objective {o}"
OF_NOUNS = word_set("image picture photo photograph analysis data color colour content contents copy measurement "
                "reading scan map view video recording sample")
RELATION_NOUNS = word_set("parent child father mother son daughter owner friend neighbor neighbour successor "
                      "predecessor part member sibling ancestor descendant partner leader copy subset instance "
                      "capital boss")
# verbs whose object is a place: "paint tile {y}", "unlock place {p}"
PLACE_VERBS = word_set("paint clean visit unlock lock open close explore inspect scan survey dig mine water occupy "
                       "clear sweep mop build mark photograph reach enter leave")
MOTION_VERBS = word_set("move drive navigate fly sail go walk travel turn ride run climb jump swim steer roll slide "
                    "teleport hop step crawl descend ascend cross approach rotate")
PHRASAL = {("pick", "up"), ("put", "down"), ("switch", "on"), ("switch", "off"), ("turn", "on"), ("turn", "off"),
           ("take", "off"), ("set", "up"), ("put", "on"), ("put", "away"), ("take", "out"), ("pick", "out"),
           ("clean", "up"), ("plug", "in"), ("log", "in"), ("log", "out"), ("shut", "down"), ("lay", "down"),
           ("set", "down"), ("hand", "over"), ("give", "up"), ("wake", "up"), ("back", "up"), ("fill", "up"),
           ("pour", "out"), ("get", "off"), ("get", "on"), ("get", "out"), ("get", "in"), ("take", "down"),
           ("put", "in"), ("put", "out"), ("tidy", "up"), ("warm", "up"), ("heat", "up"), ("cool", "down")}
# the preposition of an action's second object, by verb
VERB_PREPOSITIONS = {
    "load": "into", "unload": "from", "stack": "on", "unstack": "from", "drop": "onto", "put": "on", "take": "from",
    "remove": "from", "insert": "into", "attach": "to", "detach": "from", "connect": "to", "disconnect": "from",
    "give": "to", "pass": "to", "hand": "to", "throw": "at", "pour": "into", "fill": "with", "place": "on",
    "mount": "on", "unmount": "from", "plug": "into", "unplug": "from", "lift": "from", "lower": "onto",
    "pick": "from", "push": "to", "pull": "from", "transfer": "to", "deliver": "to", "send": "to", "show": "to",
    "change": "to", "convert": "to", "swap": "with", "exchange": "for", "replace": "with", "feed": "to",
    "serve": "to", "carry": "to", "bring": "to", "fetch": "from", "get": "from", "grab": "from", "store": "in",
}
# parameter name words that stand for the start or the end of a movement
FROM_WORDS = word_set("from current previous source origin start initial old departure")
TO_WORDS = word_set("to next destination target goal end final new arrival")
NOISE_DOMAIN_WORDS = word_set("strips typed untyped adl domain complex simple propositional grounded")
SPLIT_PIECES_SHORT = word_set("on in at to is up of by ob")
# abbreviations that may be part of a compound: 'curpos', 'underob'; not 'destin' (dest + in)
SPLIT_ABBREVIATIONS = word_set("pos loc obj cur curr avail prev conn")
# words that say nothing about what a text is about (topic checks of generated templates)
FUNCTION_WORDS = word_set(
    "a an the is are am be been being was were has have had do does did not no nor and or but if then than that "
    "this these those there here it its i me my mine we us our you your he him his she her they them their which "
    "who whom whose what where when while as so can cannot could may might must will would shall should all any "
    "each every some none only also very just still yet both either neither own same such too")
GENERIC_WORDS = word_set("object objects thing things item items entity entities kind kinds type types something "
                         "anything nothing everything one ones")
# words that may stand for each other in a template (topic checks): 'the boat is docked at {l}' is about at-ferry
SYNONYMS = tuple(word_set(group) for group in (
    "ferry boat ship vessel", "car automobile vehicle", "truck lorry vehicle", "airplane plane aeroplane aircraft",
    "location place position spot site", "equal same different distinct differ identical",
    "hold holding grasp grip carry", "robot robby agent", "hand gripper arm", "block cube brick",
    "table surface", "package parcel box", "city town", "rover robot", "satellite spacecraft",
    "tile cell square", "waypoint location point", "store storage", "image picture photo photograph",
    "movie film", "snack food", "person passenger traveller traveler", "floor level storey story",
    "lift elevator", "destination target goal", "crate box", "depot warehouse", "clear free empty vacant",
    "connected adjacent next neighbour neighbor linked joined",
))
