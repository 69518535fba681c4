/*
 * special.c: the registry of special rules the engine implements.
 *
 * Army data names special rules by id (scenarios/armies/special-rules.yaml).
 * This table is the single source of truth for which of them the engine
 * models: an id found here sets its flag on the unit; an id not found is
 * carried as "not modelled" and reported, never silently dropped.
 */
#include <string.h>

#include "wm.h"

static const om_wm_special om_wm_specials[] = {
    {"terror", OM_WM_RULE_TERROR,
     "enemy stands in contact fight at -1 Attack unless they also cause terror", "6.4"},
    {"shots-no-save", OM_WM_RULE_SHOTS_NO_SAVE,
     "its shooting allows no armour save (cannon, stone thrower, bolt thrower)", "5.3"},
    {"warband", OM_WM_RULE_WARBAND,
     "+1 Attack per stand pursuing, -1 in the round after retreating; one drive-back die "
     "fewer before losing a stand, one more after", "WMA 14 Warband; seed 001 l.4633"},
    {"shock", OM_WM_RULE_SHOCK,
     "based on the long edge (side key long_base): +1 Attack per stand charging or pursuing, "
     "even against defended enemies (A24)", "WMA 14 Shock; seed 001 l.4586"},
    {"heavy-chariots", OM_WM_RULE_CHARGE_PLUS1,
     "+1 more Attack per stand charging enemy in the open (+2 in all)", "seed 001 l.4524"},
    {"scythed-chariots", OM_WM_RULE_SCYTHED,
     "+2 charging in the open; fights one round and is then removed as destroyed; a unit "
     "retreating from it after suffering a hit is confused", "seed 001 l.4563-4573"},
    {"shieldwall", OM_WM_RULE_SHIELDWALL,
     "armour one better in the first round when charged, unless fortified or in dense "
     "terrain", "seed 001 l.4575-4579"},
    {"phalanx", OM_WM_RULE_PHALANX,
     "stands striking to a side or rear edge have base Attack 0; rear supports do not count",
     "seed 001 l.4550-4561"},
    {"legion", OM_WM_RULE_LEGION,
     "first round: +1 to the result per stand fighting to its front with no enemy on its "
     "side or rear", "seed 001 l.4526-4530"},
    {"maniple", OM_WM_RULE_MANIPLE,
     "after armour, a D6 per rear-supporting stand of another maniple unit; each 6 saves a "
     "hit", "seed 001 l.4546-4548"},
    {"fanatics", OM_WM_RULE_FANATICS,
     "immune to terror, never driven back by shooting, must pursue when allowed",
     "seed 001 l.4501-4507"},
    {"heavy-artillery", OM_WM_RULE_NO_STAND_AND_SHOOT | OM_WM_RULE_SHOTS_NO_SAVE,
     "shooting allows no armour save; cannot shoot at chargers", "seed 001 l.4513-4515"},
    {"light-artillery", OM_WM_RULE_SHOTS_NO_SAVE | OM_WM_RULE_LINE_FIRE,
     "shooting allows no armour save; one die per stand in its line of flight, up to 3 "
     "(line_stands); may shoot at chargers", "seed 001 l.4536-4544"},
    {"elephants", OM_WM_RULE_TERROR | OM_WM_RULE_RAMPAGE,
     "cause terror (+2 charging, as monsters); retreating, they rampage: the enemy they "
     "touch is confused on a 6, destroyed if it was confused (contacts with other units "
     "are outside a two-unit engagement)", "seed 001 l.4489-4499"},
    {"leonidas", OM_WM_RULE_ARMOUR_PLUS1_MELEE,
     "the unit he fights with has its armour one better in combat (none becomes 6+); his "
     "+3 is his Attacks bonus", "seed 001 l.3238; ambiguity N2: combat only"},
    {"ashurbanipal", OM_WM_RULE_REROLL_ONE_PER_TURN,
     "once a turn one missed attack die is re-rolled (spent in the turn's first round)",
     "seed 001 l.3140; A27"},
    {"hermann", OM_WM_RULE_HERMANN,
     "one extra Attack die per unit in the first round when it charges, even against "
     "defended enemies", "seed 001 l.3882"},
    {"skirmish", OM_WM_RULE_SKIRMISH,
     "skirmish infantry supports only from the side: its rear supports do not count; "
     "charged, skirmishers may evade after shooting (side key evade): no round, their "
     "hits drive the charger back", "seed 001 l.839-877, l.1780-1782, l.4606"},
    {"caractacus", OM_WM_RULE_NONE,
     "While no British chariot unit is destroyed, Chariots cause terror in armies without "
     "Chariots: side key caractacus on a Britons Chariots side (the enemy's list decides)",
     "seed 001 l.3927; A29"},
    /* Warmaster 1.1 and Revolution rules with behaviours of their own. */
    {"trolls", OM_WM_RULE_REGENERATE,
     "Regenerates one outstanding hit each combat round after whole stands are removed "
     "(it still counts in the result); its Command penalty doubling is battle level",
     "army lists (1.1, revolution)"},
    {"steam-tank", OM_WM_RULE_COUNTS_DEFENDED | OM_WM_RULE_NO_DRIVE_BACK |
                       OM_WM_RULE_SHOTS_PIERCE,
     "Always counts as defended; never driven back; its shots make armour one worse; "
     "the malfunction chart is battle level", "army lists (1.1, revolution)"},
    {"ethereal-host", OM_WM_RULE_HITS_ON_4 | OM_WM_RULE_NO_DRIVE_BACK | OM_WM_RULE_TERROR,
     "Its attacks hit on 4+ whatever the cover; never driven back; causes terror",
     "army lists (1.1, revolution)"},
    {"cannon", OM_WM_RULE_CANNON | OM_WM_RULE_LINE_FIRE,
     "Volleys: no save, fortified counts as defended and defended as open, +1 Attack per "
     "further stand bounced through (line_stands); at chargers grapeshot, 2 Attacks, saves",
     "warmaster.md 5.10"},
    {"galloper-guns", OM_WM_RULE_CANNON | OM_WM_RULE_LINE_FIRE,
     "As a cannon: volleys without save and with cover one step lower, bounce, grapeshot",
     "army lists (revolution); warmaster.md 5.10"},
    {"bolt-thrower", OM_WM_RULE_SHOTS_NO_SAVE | OM_WM_RULE_LINE_FIRE,
     "No armour save; +1 Attack per further stand of the target skewered (line_stands)",
     "warmaster.md 5.10"},
    {"stone-thrower", OM_WM_RULE_SHOTS_NO_SAVE | OM_WM_RULE_NO_STAND_AND_SHOOT,
     "No armour save; cannot shoot at chargers (blind fire needs a target out of sight, "
     "which an engagement does not have)", "warmaster.md 5.10"},
    {"rock-lobber", OM_WM_RULE_SHOTS_NO_SAVE | OM_WM_RULE_NO_STAND_AND_SHOOT,
     "As a stone thrower: no armour save, cannot shoot at chargers", "army lists (1.1)"},
    {"terracotta-warriors", OM_WM_RULE_IGNORES_TERROR | OM_WM_RULE_NEVER_CONFUSED,
     "Immune to terror; never confused; supported only by (and supporting only) units of "
     "its kind: declare its supports accordingly", "army lists (revolution)"},
    {"yhetees", OM_WM_RULE_CHARGE_PLUS1 | OM_WM_RULE_MUST_PURSUE,
     "+1 more Attack per stand charging in the open; must pursue; supported only by (and "
     "supporting only) units of its kind: declare its supports accordingly",
     "army lists (1.1, revolution)"},
    {"rat-swarms", OM_WM_RULE_NO_DRIVE_BACK,
     "Never driven back by shooting; supported only by units of its kind: declare its "
     "supports accordingly", "army lists (1.1, revolution)"},
    {"pump-wagon", OM_WM_RULE_BONUS_D6_OR_D3 | OM_WM_RULE_NO_DRIVE_BACK |
                       OM_WM_RULE_NEVER_CONFUSED,
     "+D6 attack dice in a round where it charges or pursues, +D3 otherwise; never "
     "driven back; never confused", "army lists (1.1, revolution)"},
    {"doom-wheel", OM_WM_RULE_BONUS_D6_CHARGING | OM_WM_RULE_TERROR,
     "+D6 attack dice when it charges an enemy in the open (round 1); causes terror; its "
     "random movement is battle level", "army lists (1.1, revolution)"},
    {"doom-diver", OM_WM_RULE_NO_STAND_AND_SHOOT,
     "Cannot shoot at chargers (its range and normal saves are in the stat line)",
     "army lists (revolution)"},
    {"earthshaker-cannon", OM_WM_RULE_DRIVE_BACK_CONFUSE_4,
     "A stone thrower (its own id) whose drive backs confuse on a 4+; confusing units "
     "touching the target is outside a two-unit engagement", "army lists (revolution)"},
    {"gnoblars", OM_WM_RULE_NO_CHARACTER,
     "No character joins and no magic item (checked); supported only by Gnoblars: declare "
     "its supports accordingly (bows at 15cm are in the stat line)", "army lists (revolution)"},
    {"skull-chukka", OM_WM_RULE_DRIVE_BACK_CONFUSE_4,
     "The drive backs of its shots confuse on a 4+ instead of a 6",
     "army lists (1.1, revolution)"},
    {"pikemen", OM_WM_RULE_PIKES,
     "Counts as defended in the first round against cavalry or chariots charging it (not "
     "in dense terrain); never defended or fortified in dense terrain or on walls; supported "
     "from the side only (rear_supports do not count)", "army lists (revolution)"},
    {"war-hydra", OM_WM_RULE_REGENERATE_ROUND | OM_WM_RULE_TERROR,
     "Regenerates one hit it suffered in each round, if alive (it still counts in the "
     "result); causes terror; its fire is its shooting Attacks", "army lists (1.1, revolution)"},
    {"treeman", OM_WM_RULE_TERROR,
     "Causes terror; it cannot be defended in woods (as a monster it never is)",
     "army lists (revolution)"},
    /* Warmaster 1.1 and Revolution army-list rules whose every engagement
     * effect is one of the shared behaviours above (classified from their texts
     * in scenarios/armies/special-rules.yaml). Rules with further effects the
     * engine does not model stay out of this table and are reported. */
    {"archers", OM_WM_RULE_SHOTS_PLUS1,
     "+1 to hit when shooting", "army lists (revolution)"},
    {"archers-reavers-elven-bolt-thrower", OM_WM_RULE_SHOTS_PLUS1,
     "+1 to hit when shooting", "army lists (1.1)"},
    {"ashigaru-teppo", OM_WM_RULE_SHOTS_PIERCE,
     "Its shots make armour one worse (6+ none)", "army lists (revolution)"},
    {"bears", OM_WM_RULE_CHARGE_PLUS1 | OM_WM_RULE_MUST_PURSUE | OM_WM_RULE_DEFENDED_ONLY_IN_DENSE |
                  OM_WM_RULE_EXTRA_STRIKE_ROUND1,
     "+1 more Attack per stand charging in the open (as monsters); must pursue when allowed; "
     "1.1: with more hits scored than suffered in round 1, one more Attack per fighting stand "
     "before the result; Revolution: never defended outside dense terrain, supported only by "
     "(and supporting only) Bears: declare its supports accordingly",
     "army lists (1.1, revolution); A-10, A-31"},
    {"berserkers", OM_WM_RULE_IGNORES_TERROR | OM_WM_RULE_NO_DRIVE_BACK | OM_WM_RULE_MUST_PURSUE,
     "Immune to terror; never driven back by shooting; must pursue when allowed", "army lists (revolution)"},
    {"birdmen", OM_WM_RULE_PURSUABLE,
     "Non-flyers may pursue it although it flies", "army lists (revolution)"},
    {"black-coach", OM_WM_RULE_TERROR,
     "Causes terror", "army lists (1.1, revolution)"},
    {"blunderbusses", OM_WM_RULE_SHOTS_PIERCE,
     "Its shots make armour one worse (6+ none)", "army lists (revolution)"},
    {"bone-giant", OM_WM_RULE_TERROR,
     "Causes terror", "army lists (1.1, revolution)"},
    {"bull-rhinox", OM_WM_RULE_TERROR,
     "Causes terror", "army lists (revolution)"},
    {"bushido", OM_WM_RULE_DRIVE_BACK_MINUS1,
     "One drive-back die fewer", "army lists (revolution)"},
    {"carnosaur", OM_WM_RULE_TERROR,
     "Causes terror", "army lists (1.1, revolution)"},
    {"celestial-dragon", OM_WM_RULE_TERROR,
     "Causes terror", "army lists (revolution)"},
    {"chaos-spawn", OM_WM_RULE_TERROR | OM_WM_RULE_NO_DRIVE_BACK | OM_WM_RULE_MUST_PURSUE,
     "Causes terror; never driven back by shooting and must pursue when allowed (Revolution "
     "only: the 1.1 text gives terror alone)", "army lists (1.1, revolution)"},
    {"cold-one-knights", OM_WM_RULE_ROUND1_FRONT_PLUS1,
     "+1 Attack per stand fighting to its front in the first round", "army lists (1.1, revolution)"},
    {"daemon-swarm", OM_WM_RULE_NO_DRIVE_BACK,
     "Never driven back by shooting", "army lists (1.1, revolution)"},
    {"dire-wolves", OM_WM_RULE_CHARGE_PLUS1,
     "+1 more Attack per stand charging in the open", "army lists (1.1, revolution)"},
    {"dragon-ogres", OM_WM_RULE_IGNORES_TERROR,
     "Immune to terror", "army lists (revolution)"},
    {"elephant", OM_WM_RULE_TERROR,
     "Causes terror", "army lists (1.1, revolution)"},
    {"favour-of-the-gods", OM_WM_RULE_TERROR,
     "Causes terror", "army lists (1.1, revolution)"},
    {"fenbeast", OM_WM_RULE_TERROR,
     "Causes terror", "army lists (revolution)"},
    {"flagellants", OM_WM_RULE_IGNORES_TERROR | OM_WM_RULE_NO_DRIVE_BACK | OM_WM_RULE_MUST_PURSUE,
     "Immune to terror; never driven back by shooting; must pursue when allowed", "army lists (1.1, revolution)"},
    {"fly", OM_WM_RULE_FLY,
     "Flies: non-flyers cannot pursue it", "army lists (1.1, revolution)"},
    {"forest-spirits", OM_WM_RULE_IGNORES_TERROR,
     "Immune to terror", "army lists (revolution)"},
    {"glade-guard", OM_WM_RULE_SHOTS_PLUS1,
     "+1 to hit when shooting", "army lists (revolution)"},
    {"gorgers", OM_WM_RULE_PURSUES_ANY,
     "May pursue any retreating enemy: cavalry, chariots and flyers", "army lists (revolution)"},
    {"grail-knights", OM_WM_RULE_IGNORES_TERROR | OM_WM_RULE_CHARGE_PLUS1,
     "Immune to terror; +1 more Attack per stand charging in the open", "army lists (1.1, revolution)"},
    {"great-taurus", OM_WM_RULE_TERROR,
     "Causes terror", "army lists (revolution)"},
    {"griffon", OM_WM_RULE_TERROR,
     "Causes terror", "army lists (1.1, revolution)"},
    {"gyrocopter", OM_WM_RULE_SHOTS_PIERCE,
     "Its shots make armour one worse (6+ none)", "army lists (1.1, revolution)"},
    {"handgunners", OM_WM_RULE_SHOTS_PIERCE,
     "Its shots make armour one worse (6+ none)", "army lists (1.1, revolution)"},
    {"handguns", OM_WM_RULE_SHOTS_PIERCE,
     "Its shots make armour one worse (6+ none)", "army lists (revolution)"},
    {"hippogriff", OM_WM_RULE_TERROR,
     "Causes terror", "army lists (revolution)"},
    {"jezzails", OM_WM_RULE_SHOTS_PIERCE,
     "Its shots make armour one worse (6+ none)", "army lists (1.1, revolution)"},
    {"knights", OM_WM_RULE_IGNORES_TERROR,
     "Immune to terror", "army lists (1.1, revolution)"},
    {"komainu", OM_WM_RULE_IGNORES_TERROR | OM_WM_RULE_CHARGE_PLUS1 | OM_WM_RULE_INSTABILITY,
     "Immune to terror; +1 more Attack per stand charging in the open; Daemonic Instability "
     "at the start of its own turns once it has lost a stand", "army lists (revolution)"},
    {"leadbelchers", OM_WM_RULE_SHOTS_PIERCE,
     "Its shots make armour one worse (6+ none)", "army lists (revolution)"},
    {"magic-carpets", OM_WM_RULE_PURSUABLE,
     "Non-flyers may pursue it although it flies", "army lists (1.1, revolution)"},
    {"manticore", OM_WM_RULE_TERROR,
     "Causes terror", "army lists (1.1, revolution)"},
    {"mikata", OM_WM_RULE_IGNORES_TERROR | OM_WM_RULE_NO_DRIVE_BACK | OM_WM_RULE_MUST_PURSUE,
     "Immune to terror; never driven back by shooting; must pursue when allowed", "army lists (revolution)"},
    {"minotaurs", OM_WM_RULE_IGNORES_TERROR | OM_WM_RULE_MUST_PURSUE,
     "Immune to terror; must pursue when allowed", "army lists (revolution)"},
    {"peasants", OM_WM_RULE_NO_CHARGE_BONUS,
     "No charge bonus", "army lists (1.1, revolution)"},
    {"plague-monks", OM_WM_RULE_IGNORES_TERROR | OM_WM_RULE_NO_DRIVE_BACK | OM_WM_RULE_MUST_PURSUE,
     "Immune to terror; never driven back by shooting; must pursue when allowed", "army lists (1.1, revolution)"},
    {"rangers", OM_WM_RULE_PURSUES_ANY,
     "May pursue any retreating enemy: cavalry, chariots and flyers", "army lists (1.1, revolution)"},
    {"red-guard", OM_WM_RULE_SHOTS_PIERCE,
     "Its shots make armour one worse (6+ none)", "army lists (revolution)"},
    {"rhinox-riders", OM_WM_RULE_IGNORES_TERROR | OM_WM_RULE_CHARGE_PLUS1,
     "Immune to terror; +1 more Attack per stand charging in the open", "army lists (revolution)"},
    {"stegadon-mount", OM_WM_RULE_TERROR,
     "Causes terror", "army lists (1.1, revolution)"},
    {"tatsu", OM_WM_RULE_TERROR,
     "Causes terror", "army lists (revolution)"},
    {"tengu", OM_WM_RULE_IGNORES_TERROR | OM_WM_RULE_INSTABILITY,
     "Immune to terror; Daemonic Instability at the start of its own turns once it has lost "
     "a stand (0-1 loses a stand, 6 regains one)", "army lists (revolution)"},
    {"treeman-ancient", OM_WM_RULE_TERROR,
     "Causes terror", "army lists (revolution)"},
    {"troll-slayers", OM_WM_RULE_IGNORES_TERROR | OM_WM_RULE_NO_DRIVE_BACK | OM_WM_RULE_MUST_PURSUE | OM_WM_RULE_PLUS1_VS_MONSTERS,
     "Immune to terror; never driven back by shooting; must pursue when allowed; +1 Attack per stand against monsters", "army lists (1.1, revolution)"},
    {"ulfwerener", OM_WM_RULE_CHARGE_PLUS1 | OM_WM_RULE_PURSUES_MOUNTED | OM_WM_RULE_NO_SUPPORT,
     "+1 more Attack per stand charging in the open; may pursue cavalry and chariots; can neither support nor be supported", "army lists (revolution)"},
    {"valkyries", OM_WM_RULE_IGNORES_TERROR,
     "Immune to terror", "army lists (revolution)"},
    {"waywatchers", OM_WM_RULE_SHOTS_PIERCE | OM_WM_RULE_SHOTS_PLUS1,
     "Its shots make armour one worse (6+ none); +1 to hit when shooting", "army lists (revolution)"},
    {"were-kin", OM_WM_RULE_TERROR,
     "Causes terror", "army lists (revolution)"},
    {"wild-riders", OM_WM_RULE_ROUND1_FRONT_PLUS1,
     "+1 Attack per stand fighting to its front in the first round", "army lists (revolution)"},
    {"winged-lancers", OM_WM_RULE_IGNORES_TERROR | OM_WM_RULE_ROUND1_FRONT_PLUS1,
     "Immune to terror; +1 Attack per stand fighting to its front in the first round", "army lists (revolution)"},
    {"winged-nightmare", OM_WM_RULE_TERROR,
     "Causes terror", "army lists (1.1, revolution)"},
    {"witch-elves", OM_WM_RULE_IGNORES_TERROR | OM_WM_RULE_NO_DRIVE_BACK | OM_WM_RULE_MUST_PURSUE,
     "Immune to terror; never driven back by shooting; must pursue when allowed", "army lists (1.1, revolution)"},
    {"wyvern", OM_WM_RULE_TERROR,
     "Causes terror", "army lists (1.1, revolution)"},
    {"yozhin", OM_WM_RULE_TERROR,
     "Causes terror", "army lists (revolution)"},
    /* Big monsters that are badly hurt (rule_effects_fantasy P18): the 1.1
     * lists from half their Hits and even while engaged, Revolution's from
     * one more and only once no longer engaged (ruleset flag). */
    {"dragons", OM_WM_RULE_TERROR | OM_WM_RULE_BADLY_HURT | OM_WM_RULE_HURT_FROM_HALF,
     "Causes terror; a Dragon Rider unit left with 3-5 hits (1.1) or 4-5 (Revolution, once "
     "no longer engaged) at the end of a Shooting or Combat phase is badly hurt: hits "
     "discarded, Hits 3, Attacks 3, Shots 2; a Dragon-riding character adds 3 shooting "
     "Attacks (Dragon fire) to the unit it joins", "army lists (1.1, revolution); P18, A-14"},
    {"greater-daemon", OM_WM_RULE_TERROR | OM_WM_RULE_BADLY_HURT | OM_WM_RULE_HURT_FROM_HALF,
     "Causes terror; left with 3-5 hits (1.1) or 4-5 (Revolution, once no longer engaged) at "
     "the end of a Shooting or Combat phase it is badly hurt: hits discarded, Hits 3, "
     "Attacks 4", "army lists (1.1, revolution); P18"},
    {"sphinx", OM_WM_RULE_TERROR | OM_WM_RULE_BADLY_HURT | OM_WM_RULE_HURT_FROM_HALF,
     "Causes terror; left with 3-5 hits (1.1) or 4-5 (Revolution, once no longer engaged) at "
     "the end of a Shooting or Combat phase it is badly hurt: hits discarded, Hits 3, "
     "Attacks 2", "army lists (1.1, revolution); P18"},
    {"stegadon", OM_WM_RULE_TERROR | OM_WM_RULE_BADLY_HURT,
     "Causes terror (the 1.1 \"fear\", A-18); left with 6-9 hits at the end of a Shooting "
     "or Combat phase (Revolution: once no longer engaged) it is badly hurt: hits "
     "discarded, Hits 5, Attacks 5, Shots 2", "army lists (1.1, revolution); P18, A-18"},
    {"war-mammoth", OM_WM_RULE_TERROR | OM_WM_RULE_BADLY_HURT,
     "Causes terror; left with 6-9 hits at the end of a Shooting or Combat phase once no "
     "longer engaged it is badly hurt: hits discarded, Hits 5, Attacks 4",
     "army lists (revolution); P18"},
    {"dragon-ogre-shaggoth", OM_WM_RULE_TERROR | OM_WM_RULE_BADLY_HURT,
     "Causes terror; left with 5-7 hits at the end of a Shooting or Combat phase once no "
     "longer engaged it is badly hurt: hits discarded, Hits 4, Attacks 4",
     "army lists (revolution); P18"},
    /* Mounts and companions that shoot with the unit their character joins:
     * terror, and Attacks at the usual to-hit and save. */
    {"chaos-dragon", OM_WM_RULE_TERROR,
     "Causes terror; the rider adds 3 shooting Attacks (Dragon fire) to the unit it joins, "
     "in its volleys and at chargers", "army lists (1.1, revolution); A-14"},
    {"zombie-dragon", OM_WM_RULE_TERROR,
     "Causes terror; the rider adds 3 shooting Attacks (Dragon fire) to the unit it joins, "
     "in its volleys and at chargers", "army lists (1.1, revolution); A-14"},
    {"forest-dragon", OM_WM_RULE_TERROR,
     "Causes terror; the rider adds 3 shooting Attacks (Dragon fire) to the unit it joins, "
     "in its volleys and at chargers", "army lists (revolution); A-14"},
    {"djinn", OM_WM_RULE_TERROR,
     "Causes terror; the Wizard's Djinn adds 2 shooting Attacks to the unit he joins (its "
     "Curse spell is magic, not modelled)", "army lists (1.1, revolution); A-15"},
    /* Rules of one unit with several mechanisms (rule_effects_fantasy). */
    {"grail-reliquae", OM_WM_RULE_ATTACK_PLUS1 | OM_WM_RULE_NO_CHARGE_BONUS |
                           OM_WM_RULE_IGNORES_TERROR | OM_WM_RULE_NO_DRIVE_BACK |
                           OM_WM_RULE_NEVER_CONFUSED,
     "Grail Pilgrims (the Peasants carrying it, and Peasants touching them: give them the "
     "id): +1 Attack per stand, still no charge bonus, immune to terror, never driven back "
     "or confused", "army lists (revolution); P01, P02, P06, P11, P13"},
    {"zealots", OM_WM_RULE_ZEALOT,
     "Against a unit of a Chaos or Undead army list (Chaos, Daemons, Beastmen, Chaos "
     "Dwarfs, Skaven, Tomb Kings, Vampire Counts): +1 Attack per stand in the first round, "
     "whoever charged, and must pursue", "army lists (revolution); A-12, A-29"},
    {"screaming-bell", OM_WM_RULE_NO_DRIVE_BACK | OM_WM_RULE_DESTROYED_IF_RETREATS |
                           OM_WM_RULE_IMMOBILE,
     "Never driven back by shooting; destroyed if forced to retreat; pursues and falls back "
     "only when pushed by Skaven infantry (side key pushed); Skaven units touching it ignore "
     "terror (side key aura: always)", "army lists (1.1, revolution); P11, P15, P16"},
    {"temple-daemons", OM_WM_RULE_IGNORES_TERROR | OM_WM_RULE_INSTABILITY,
     "Immune to terror; Daemonic Instability at the start of its own turns once it has lost "
     "a stand: a D6, -1 at one stand left; 0-1 loses a stand, 6 regains one (the 2-3 "
     "confusion ends with the Command phase it starts, 7.2)", "army lists (revolution); P19"},
    /* War machines and shooters with shooting of their own (P21). */
    {"crossbowmen-and-dark-riders", OM_WM_RULE_REPEATER,
     "Repeating crossbows: 2 shots a stand at a target within 15cm (side key target_cm), 1 "
     "beyond and at chargers", "army lists (1.1, revolution); P21"},
    {"helblaster", OM_WM_RULE_HELBLASTER | OM_WM_RULE_SHOTS_PIERCE,
     "8, 4 or 2 Attacks within 10, 20 or 30cm (target_cm; 8 at chargers); armour one worse; "
     "three 1s to hit: no hits; four: it explodes, with 6 automatic hits on a charger",
     "army lists (1.1, revolution); P21"},
    {"death-rocket", OM_WM_RULE_ROCKET | OM_WM_RULE_SHOTS_PIERCE | OM_WM_RULE_NO_STAND_AND_SHOOT,
     "A stone thrower of D6 Attacks saved at -1; a 1 rolls on the misfire chart: explodes, "
     "1 Attack, overshoots the target (A-24) or 2D6", "army lists (revolution); P21, A-24"},
    {"rocket-launcher", OM_WM_RULE_ROCKET | OM_WM_RULE_SHOTS_PIERCE |
                            OM_WM_RULE_NO_STAND_AND_SHOOT,
     "A stone thrower of D6 Attacks saved at -1; a 1 rolls on the misfire chart: explodes, "
     "1 Attack, overshoots the target (A-24) or 2D6", "army lists (revolution); P21, A-24"},
    {"flame-cannon", OM_WM_RULE_FLAME,
     "2D6 Attacks, at chargers too; a double rolls on the misfire chart (explodes; 4+2D6 "
     "then explodes; 6 and 1D6 from then on; none; 10; 12+D6)",
     "army lists (1.1, revolution); warmaster.md 5.10; A-23"},
    {"warp-lightning-cannon", OM_WM_RULE_DOUBLE_ONES_CONFUSE | OM_WM_RULE_WARP_LIGHTNING,
     "Revolution: two 1s to hit in one shooting confuse it (A-22). 1.1: D6 Attacks, a 1 "
     "turning D6 Attacks on itself; no drive backs; a unit it hurts is confused on a 6",
     "army lists (1.1, revolution); A-22"},
    {"trebuchet", OM_WM_RULE_SHOTS_NO_SAVE | OM_WM_RULE_NO_STAND_AND_SHOOT |
                      OM_WM_RULE_COVER_ONE_LOWER | OM_WM_RULE_STATIC | OM_WM_RULE_STATIC_SIX |
                      OM_WM_RULE_BLIND_GATE,
     "No armour save, never at chargers; not moved by drive backs: destroyed by any 6 (1.1) "
     "or by more than 10cm (Revolution, A-21); Revolution counts cover one lower; shooting "
     "blind (blind_fire) hits on 6s, or in 1.1 needs a 6 first", "army lists (1.1, "
     "revolution); A-11, A-21"},
    {"araby-elephants", OM_WM_RULE_TERROR | OM_WM_RULE_STAMPEDE,
     "Cause terror; whatever would confuse them makes them stampede instead: no -1 Attack, "
     "and they must pursue while stampeding (the stampede move is battle level)",
     "army lists (1.1, revolution); P13, P14"},
    {"salamanders", OM_WM_RULE_SHOTS_PIERCE | OM_WM_RULE_SALAMANDER |
                        OM_WM_RULE_SALAMANDER_AT_CHARGERS,
     "A Skink unit with its Salamander stand (give the Skinks stands: 4 and the id): the "
     "whole unit's shots make armour one worse; the Salamander shoots 2, kept to the last; "
     "at chargers 2 in Revolution, 1 in 1.1", "army lists (1.1, revolution); A-35"},
    {"war-wagon", OM_WM_RULE_SHOTS_PIERCE,
     "Kislev War Wagon: only its wagon stand fights and shoots (4 and 4, armour one worse); "
     "side key formation: column (open; Revolution retreats instead of being destroyed) or "
     "laager (defended, no flank or rear, holds when it loses, the enemy fighting on without "
     "pursuit bonus; never moved by drive backs, confused on a 6); Kislev infantry beside a "
     "laager: side key beside_laager", "army lists (1.1, revolution); P10, P11, P16, P23"},
    /* Powers the scenario declares with side keys. */
    {"anvil", OM_WM_RULE_NONE,
     "Struck in the Runesmith's Shooting phase, on a 4+ Dwarf units within 20cm ignore "
     "terror until his next turn: side key aura (roll, or always); dispelling is magic",
     "army lists (1.1, revolution); A-26"},
    {"shrine", OM_WM_RULE_NONE,
     "Invoked in the Shugenja's Shooting phase, on a 4+ units within 20cm ignore terror "
     "until his next turn: side key aura (roll, or always); dispelling is magic",
     "army lists (revolution); A-26"},
    {"tomb-king", OM_WM_RULE_NONE,
     "Once a battle, +1 Attack per stand of one unit within 20cm for a Combat phase: side "
     "keys power: tomb-king and power_turn", "army lists (1.1, revolution); A-27"},
    {"oathstone", OM_WM_RULE_NONE,
     "Once a game the Hero joined to a unit (not Troll Slayers) gives it and himself +1 "
     "Attack per stand and immunity to terror for a Combat phase: side keys power: "
     "oathstone and power_turn", "army lists (revolution); A-27"},
    /* Ids that change nothing the engine does not already do. */
    {"elven-bolt-thrower", OM_WM_RULE_NONE,
     "Shoots as missile troops do: armour saves allowed, may shoot at chargers, no skewer "
     "(its Shots are in its stat line)", "warmaster.md 5.10"},
    {"triple-bows", OM_WM_RULE_SHOTS_NO_SAVE | OM_WM_RULE_LINE_FIRE,
     "Rulebook Bolt Throwers: no armour save; +1 Attack per further stand skewered "
     "(line_stands)", "army lists (revolution); warmaster.md 5.10"},
    {"giant", OM_WM_RULE_NONE,
     "No rule text in the sources beyond sieges (A-20): it fights by its stat line",
     "rule_effects_fantasy A-20"},
};

const om_wm_special *om_wm_special_find(const char *id)
{
    for (size_t i = 0; i < sizeof om_wm_specials / sizeof om_wm_specials[0]; i++)
        if (strcmp(om_wm_specials[i].id, id) == 0)
            return &om_wm_specials[i];
    return NULL;
}

/* Rules whose text in one rule set's army lists gives less than the flags
 * above: the bits that rule set drops. */
static const struct {
    const char *id;
    om_wm_ruleset_id ruleset;
    om_wm_rules drop;
} om_wm_special_narrower[] = {
    /* The 1.1 Chaos list gives Spawn terror only (rule_effects_fantasy A-39). */
    {"chaos-spawn", OM_WM_RULES_WM11, OM_WM_RULE_NO_DRIVE_BACK | OM_WM_RULE_MUST_PURSUE},
    /* Bears: the 1.1 list's extra strike, Revolution's loss of defended status. */
    {"bears", OM_WM_RULES_WM11, OM_WM_RULE_DEFENDED_ONLY_IN_DENSE},
    {"bears", OM_WM_RULES_REV, OM_WM_RULE_EXTRA_STRIKE_ROUND1},
    /* Revolution's monsters are badly hurt from one hit more (P18). */
    {"dragons", OM_WM_RULES_REV, OM_WM_RULE_HURT_FROM_HALF},
    {"greater-daemon", OM_WM_RULES_REV, OM_WM_RULE_HURT_FROM_HALF},
    {"sphinx", OM_WM_RULES_REV, OM_WM_RULE_HURT_FROM_HALF},
    /* The two Warp Lightning Cannons and Trebuchets, the 1.1 Salamanders
     * shooting once at chargers (army lists). */
    {"salamanders", OM_WM_RULES_WM11, OM_WM_RULE_SALAMANDER_AT_CHARGERS},
    {"warp-lightning-cannon", OM_WM_RULES_WM11, OM_WM_RULE_DOUBLE_ONES_CONFUSE},
    {"warp-lightning-cannon", OM_WM_RULES_REV, OM_WM_RULE_WARP_LIGHTNING},
    {"trebuchet", OM_WM_RULES_WM11, OM_WM_RULE_COVER_ONE_LOWER},
    {"trebuchet", OM_WM_RULES_REV, OM_WM_RULE_STATIC_SIX | OM_WM_RULE_BLIND_GATE},
};

om_wm_rules om_wm_special_flags(const om_wm_special *sp, const om_wm_ruleset *rs)
{
    om_wm_rules flags = sp->flag;
    for (size_t i = 0; rs != NULL && i < sizeof om_wm_special_narrower /
                                         sizeof om_wm_special_narrower[0]; i++)
        if (om_wm_special_narrower[i].ruleset == rs->id &&
            strcmp(om_wm_special_narrower[i].id, sp->id) == 0)
            flags &= ~om_wm_special_narrower[i].drop;
    return flags;
}

/* Characters that shoot with the unit they join: their Attacks and range
 * (Dragon fire 3 at 20cm; the Djinn 2, at the common 30cm, A-15). */
static const struct {
    const char *id;
    unsigned shots, range_cm;
} om_wm_joined_shooters[] = {
    {"dragons", 3, 20}, {"chaos-dragon", 3, 20}, {"zombie-dragon", 3, 20},
    {"forest-dragon", 3, 20}, {"djinn", 2, 30},
};

/* The joined shooter entry of `sp`, or -1. */
static int joined_shooter(const om_wm_special *sp)
{
    for (size_t i = 0; i < sizeof om_wm_joined_shooters / sizeof om_wm_joined_shooters[0]; i++)
        if (strcmp(om_wm_joined_shooters[i].id, sp->id) == 0)
            return (int)i;
    return -1;
}

unsigned om_wm_special_joined_shots(const om_wm_special *sp)
{
    int i = joined_shooter(sp);
    return i < 0 ? 0u : om_wm_joined_shooters[i].shots;
}

unsigned om_wm_special_joined_range(const om_wm_special *sp)
{
    int i = joined_shooter(sp);
    return i < 0 ? 0u : om_wm_joined_shooters[i].range_cm;
}

size_t om_wm_special_count(void) { return sizeof om_wm_specials / sizeof om_wm_specials[0]; }

const om_wm_special *om_wm_special_at(size_t i)
{
    return i < om_wm_special_count() ? &om_wm_specials[i] : NULL;
}
