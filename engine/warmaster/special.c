/*
 * special.c: the registry of special rules the engine implements, as data.
 *
 * Army data names special rules by id (scenarios/armies/special-rules.yaml).
 * This table is the single source of truth for which of them the engine
 * models and how: each row maps an id to the traits it gives a unit
 * (wm_traits.h), with a row of its own for a rule set whose army list words
 * the rule otherwise. An id found here sets its traits on the unit; an id
 * not found is carried as "not modelled" and reported, never silently
 * dropped. Adding a rule is adding a row (and, for a behaviour no trait
 * describes yet, the trait and its mechanism).
 */
#include <string.h>

#include "wm.h"

/* Each row: the id, the traits it gives a unit (`traits`), those of a rule
 * set whose list words the rule otherwise (`in`), how the engine models it if
 * not by traits, the shooting Attacks it adds to a unit a character with it
 * joins, its effect in one sentence and the rulebook section it implements
 * (for army-list rules, the notes' ids of the reading taken: rule_effects_fantasy
 * and rule_effects_ancients are the research notes in docs/research/). Where
 * rule sets have rows of their own, `traits` gathers everything any list's
 * text gives the rule: it is what a rule set whose lists do not use the id
 * gets if a scenario names it there. */
static const om_wm_special om_wm_specials[] = {
    {.id = "terror",
     .traits = {.terror = true},
     .effect = "enemy stands in contact fight at -1 Attack unless they also cause terror",
     .section = "Warmaster Revolution and Ancients, Combat > Attack Modifiers"},
    {.id = "shots-no-save",
     .traits = {.shots_no_save = true},
     .effect = "its shooting allows no armour save (cannon, stone thrower, bolt thrower)",
     .section = "Warmaster Revolution, Artillery & Machines > Artillery; Warmaster Ancients, "
                "Special Rules > Heavy Artillery, Light Artillery"},
    {.id = "warband",
     .traits = {.warband = true},
     .effect = "+1 Attack per stand pursuing, -1 in the round after retreating; one drive-back "
     "die fewer before losing a stand, one more after",
     .section = "Warmaster Ancients, Special Rules > Warband"},
    {.id = "shock",
     .traits = {.shock = true},
     .effect = "based on the long edge (side key long_base): +1 Attack per stand charging or "
     "pursuing, even against defended enemies (A24)",
     .section = "Warmaster Ancients, Special Rules > Shock"},
    {.id = "heavy-chariots",
     .traits = {.charge_bonus_delta = +1},
     .effect = "+1 more Attack per stand charging enemy in the open (+2 in all)",
     .section = "Warmaster Ancients, Special Rules > Heavy Chariots"},
    {.id = "scythed-chariots",
     .traits = {.charge_bonus_delta = +1, .scythed = true},
     .effect = "+2 charging in the open; fights one round and is then removed as destroyed; a "
     "unit retreating from it after suffering a hit is confused",
     .section = "Warmaster Ancients, Special Rules > Scythed Chariots"},
    {.id = "shieldwall",
     .traits = {.shieldwall = true},
     .effect = "armour one better in the first round when charged, unless fortified or in dense "
     "terrain",
     .section = "Warmaster Ancients, Special Rules > Shieldwall"},
    {.id = "phalanx",
     .traits = {.side_supports_only = true, .phalanx = true},
     .effect = "stands striking to a side or rear edge have base Attack 0; rear supports do not "
     "count",
     .section = "Warmaster Ancients, Special Rules > Phalanx"},
    {.id = "legion",
     .traits = {.legion = true},
     .effect = "first round: +1 to the result per stand fighting to its front with no enemy on "
     "its side or rear",
     .section = "Warmaster Ancients, Special Rules > Legion"},
    {.id = "maniple",
     .traits = {.maniple = true},
     .effect = "after armour, a D6 per rear-supporting stand of another maniple unit; each 6 "
     "saves a hit",
     .section = "Warmaster Ancients, Special Rules > Maniple"},
    {.id = "fanatics",
     .traits = {.ignores_terror = true, .no_drive_back = true, .must_pursue = true},
     .effect = "immune to terror, never driven back by shooting, must pursue when allowed",
     .section = "Warmaster Ancients, Special Rules > Fanatics"},
    {.id = "heavy-artillery",
     .traits = {.shots_no_save = true, .no_stand_and_shoot = true},
     .effect = "shooting allows no armour save; cannot shoot at chargers",
     .section = "Warmaster Ancients, Special Rules > Heavy Artillery"},
    {.id = "light-artillery",
     .traits = {.shots_no_save = true, .line_fire = true},
     .effect = "shooting allows no armour save; one die per stand in its line of flight, up to "
     "3 (line_stands); may shoot at chargers",
     .section = "Warmaster Ancients, Special Rules > Light Artillery"},
    {.id = "elephants",
     .traits = {.terror = true, .rampage = true},
     .effect = "cause terror (+2 charging, as monsters); retreating, they rampage: the enemy "
     "they touch is confused on a 6, destroyed if it was confused (contacts with other units "
     "are outside a two-unit engagement)",
     .section = "Warmaster Ancients, Special Rules > Elephants"},
    {.id = "leonidas",
     .traits = {.save_delta_melee = -1},
     .effect = "the unit he fights with has its armour one better in combat (none becomes 6+); "
     "his +3 is his Attacks bonus",
     .section = "Warmaster Ancients, Greek army list > Special Rules (Leonidas); "
                "rule_effects_ancients N2: combat only"},
    {.id = "ashurbanipal",
     .traits = {.rerolls_a_miss = true},
     .effect = "once a turn one missed attack die is re-rolled (spent in the turn's first round)",
     .section = "Warmaster Ancients, Assyrian army list > Special Rules (Ashurbanipal); A27"},
    {.id = "hermann",
     .traits = {.charge_dice_delta = +1},
     .effect = "one extra Attack die per unit in the first round when it charges, even against "
     "defended enemies",
     .section = "Warmaster Ancients, German army list > Special Rules (Hermann)"},
    {.id = "skirmish",
     .traits = {.side_supports_only = true, .skirmish = true},
     .effect = "skirmish infantry supports only from the side: its rear supports do not count; "
     "charged, skirmishers may evade after shooting (side key evade): no round, their hits "
     "drive the charger back",
     .section = "Warmaster Ancients, Movement > The Evade; Combat > Support; Special Rules > "
     "Skirmish"},
    {.id = "caractacus",
     .how = OM_WM_BY_SIDE_KEYS,
     .effect = "While no British chariot unit is destroyed, Chariots cause terror in armies "
     "without Chariots: side key caractacus on a Britons Chariots side (the enemy's list "
     "decides)",
     .section = "Warmaster Ancients, Britons army list > Special Rules (Caractacus); A29"},
    /* Warmaster 1.1 and Revolution rules with behaviours of their own. */
    {.id = "trolls",
     .traits = {.regeneration = OM_WM_REGENERATES_CARRIED},
     .effect = "Regenerates one outstanding hit each combat round after whole stands are "
     "removed (it still counts in the result); its Command penalty doubling is battle level",
     .section = "army lists (1.1, revolution)"},
    {.id = "steam-tank",
     .traits = {.cover = OM_WM_COVER_ALWAYS_DEFENDED, .shots_save_delta = +1,
                .no_drive_back = true},
     .effect = "Always counts as defended; never driven back; its shots make armour one worse; "
     "the malfunction chart is battle level",
     .section = "army lists (1.1, revolution)"},
    {.id = "ethereal-host",
     .traits = {.terror = true, .melee_hit_score = 4, .no_drive_back = true},
     .effect = "Its attacks hit on 4+ whatever the cover; never driven back; causes terror",
     .section = "army lists (1.1, revolution)"},
    {.id = "cannon",
     .traits = {.shooter = OM_WM_SHOOTER_CANNON, .shots_cover_one_lower = true, .line_fire = true},
     .effect = "Volleys: no save, fortified counts as defended and defended as open, +1 Attack "
     "per further stand bounced through (line_stands); at chargers grapeshot, 2 Attacks, saves",
     .section = "Warmaster Revolution, Artillery & Machines > Artillery > Cannons"},
    {.id = "galloper-guns",
     .traits = {.shooter = OM_WM_SHOOTER_CANNON, .shots_cover_one_lower = true, .line_fire = true},
     .effect = "As a cannon: volleys without save and with cover one step lower, bounce, "
     "grapeshot",
     .section = "army lists (revolution); Warmaster Revolution, Artillery & Machines > Artillery > "
                "Cannons"},
    {.id = "bolt-thrower",
     .traits = {.shots_no_save = true, .line_fire = true},
     .effect = "No armour save; +1 Attack per further stand of the target skewered (line_stands)",
     .section = "Warmaster Revolution, Artillery & Machines > Artillery > Bolt Thrower"},
    {.id = "stone-thrower",
     .traits = {.shots_no_save = true, .no_stand_and_shoot = true},
     .effect = "No armour save; cannot shoot at chargers (blind fire needs a target out of "
     "sight, which an engagement does not have)",
     .section = "Warmaster Revolution, Artillery & Machines > Artillery > Stone Throwers"},
    {.id = "rock-lobber",
     .traits = {.shots_no_save = true, .no_stand_and_shoot = true},
     .effect = "As a stone thrower: no armour save, cannot shoot at chargers",
     .section = "army lists (1.1)"},
    {.id = "terracotta-warriors",
     .traits = {.ignores_terror = true, .never_confused = true},
     .effect = "Immune to terror; never confused; supported only by (and supporting only) units "
     "of its kind: declare its supports accordingly",
     .section = "army lists (revolution)"},
    {.id = "yhetees",
     .traits = {.charge_bonus_delta = +1, .must_pursue = true},
     .effect = "+1 more Attack per stand charging in the open; must pursue; supported only by "
     "(and supporting only) units of its kind: declare its supports accordingly",
     .section = "army lists (1.1, revolution)"},
    {.id = "rat-swarms",
     .traits = {.no_drive_back = true},
     .effect = "Never driven back by shooting; supported only by units of its kind: declare its "
     "supports accordingly",
     .section = "army lists (1.1, revolution)"},
    {.id = "pump-wagon",
     .traits = {.bonus_dice = OM_WM_BONUS_D6_OR_D3, .no_drive_back = true, .never_confused = true},
     .effect = "+D6 attack dice in a round where it charges or pursues, +D3 otherwise; never "
     "driven back; never confused",
     .section = "army lists (1.1, revolution)"},
    {.id = "doom-wheel",
     .traits = {.terror = true, .bonus_dice = OM_WM_BONUS_D6_CHARGING},
     .effect = "+D6 attack dice when it charges an enemy in the open (round 1); causes terror; "
     "its random movement is battle level",
     .section = "army lists (1.1, revolution)"},
    {.id = "doom-diver",
     .traits = {.no_stand_and_shoot = true},
     .effect = "Cannot shoot at chargers (its range and normal saves are in the stat line)",
     .section = "army lists (revolution)"},
    {.id = "earthshaker-cannon",
     .traits = {.drive_back_confuses_on = 4},
     .effect = "A stone thrower (its own id) whose drive backs confuse on a 4+; confusing units "
     "touching the target is outside a two-unit engagement",
     .section = "army lists (revolution)"},
    {.id = "gnoblars",
     .traits = {.no_character = true},
     .effect = "No character joins and no magic item (checked); supported only by Gnoblars: "
     "declare its supports accordingly (bows at 15cm are in the stat line)",
     .section = "army lists (revolution)"},
    {.id = "skull-chukka",
     .traits = {.drive_back_confuses_on = 4},
     .effect = "The drive backs of its shots confuse on a 4+ instead of a 6",
     .section = "army lists (1.1, revolution)"},
    {.id = "pikemen",
     .traits = {.side_supports_only = true, .pikes = true},
     .effect = "Counts as defended in the first round against cavalry or chariots charging it "
     "(not in dense terrain); never defended or fortified in dense terrain or on walls; "
     "supported from the side only (rear_supports do not count)",
     .section = "army lists (revolution)"},
    {.id = "war-hydra",
     .traits = {.terror = true, .regeneration = OM_WM_REGENERATES_SUFFERED},
     .effect = "Regenerates one hit it suffered in each round, if alive (it still counts in the "
     "result); causes terror; its fire is its shooting Attacks",
     .section = "army lists (1.1, revolution)"},
    {.id = "treeman",
     .traits = {.terror = true},
     .effect = "Causes terror; it cannot be defended in woods (as a monster it never is)",
     .section = "army lists (revolution)"},
    /* Warmaster 1.1 and Revolution army-list rules whose every engagement
     * effect is one of the shared behaviours above (classified from their texts
     * in scenarios/armies/special-rules.yaml). Rules with further effects the
     * engine does not model stay out of this table and are reported. */
    {.id = "archers",
     .traits = {.shots_to_hit_delta = -1},
     .effect = "+1 to hit when shooting",
     .section = "army lists (revolution)"},
    {.id = "archers-reavers-elven-bolt-thrower",
     .traits = {.shots_to_hit_delta = -1},
     .effect = "+1 to hit when shooting",
     .section = "army lists (1.1)"},
    {.id = "ashigaru-teppo",
     .traits = {.shots_save_delta = +1},
     .effect = "Its shots make armour one worse (6+ none)",
     .section = "army lists (revolution)"},
    /* Bears: the 1.1 list's extra strike, Revolution's loss of defended status. */
    {.id = "bears",
     .traits = {.charge_bonus_delta = +1, .extra_strike_round1 = true,
                .cover = OM_WM_COVER_ONLY_IN_DENSE, .must_pursue = true},
     .in[OM_WM_RULES_WM11] = &(const om_wm_traits){.charge_bonus_delta = +1,
                                                   .extra_strike_round1 = true,
                                                   .must_pursue = true},
     .in[OM_WM_RULES_REV] = &(const om_wm_traits){.charge_bonus_delta = +1,
                                                  .cover = OM_WM_COVER_ONLY_IN_DENSE,
                                                  .must_pursue = true},
     .effect = "+1 more Attack per stand charging in the open (as monsters); must pursue when "
     "allowed; 1.1: with more hits scored than suffered in round 1, one more Attack per "
     "fighting stand before the result; Revolution: never defended outside dense terrain, "
     "supported only by (and supporting only) Bears: declare its supports accordingly",
     .section = "army lists (1.1, revolution); rule_effects_fantasy A-10, A-31"},
    {.id = "berserkers",
     .traits = {.ignores_terror = true, .no_drive_back = true, .must_pursue = true},
     .effect = "Immune to terror; never driven back by shooting; must pursue when allowed",
     .section = "army lists (revolution)"},
    {.id = "birdmen",
     .traits = {.pursued_by_non_flyers = true},
     .effect = "Non-flyers may pursue it although it flies",
     .section = "army lists (revolution)"},
    {.id = "black-coach",
     .traits = {.terror = true},
     .effect = "Causes terror",
     .section = "army lists (1.1, revolution)"},
    {.id = "blunderbusses",
     .traits = {.shots_save_delta = +1},
     .effect = "Its shots make armour one worse (6+ none)",
     .section = "army lists (revolution)"},
    {.id = "bone-giant",
     .traits = {.terror = true},
     .effect = "Causes terror",
     .section = "army lists (1.1, revolution)"},
    {.id = "bull-rhinox",
     .traits = {.terror = true},
     .effect = "Causes terror",
     .section = "army lists (revolution)"},
    {.id = "bushido",
     .traits = {.drive_back_dice_delta = -1},
     .effect = "One drive-back die fewer",
     .section = "army lists (revolution)"},
    {.id = "carnosaur",
     .traits = {.terror = true},
     .effect = "Causes terror",
     .section = "army lists (1.1, revolution)"},
    {.id = "celestial-dragon",
     .traits = {.terror = true},
     .effect = "Causes terror",
     .section = "army lists (revolution)"},
    /* The 1.1 Chaos list gives Spawn terror only (rule_effects_fantasy A-39). */
    {.id = "chaos-spawn",
     .traits = {.terror = true, .no_drive_back = true, .must_pursue = true},
     .in[OM_WM_RULES_WM11] = &(const om_wm_traits){.terror = true},
     .effect = "Causes terror; never driven back by shooting and must pursue when allowed "
     "(Revolution only: the 1.1 text gives terror alone)",
     .section = "army lists (1.1, revolution)"},
    {.id = "cold-one-knights",
     .traits = {.round1_front_attack_delta = +1},
     .effect = "+1 Attack per stand fighting to its front in the first round",
     .section = "army lists (1.1, revolution)"},
    {.id = "daemon-swarm",
     .traits = {.no_drive_back = true},
     .effect = "Never driven back by shooting",
     .section = "army lists (1.1, revolution)"},
    {.id = "dire-wolves",
     .traits = {.charge_bonus_delta = +1},
     .effect = "+1 more Attack per stand charging in the open",
     .section = "army lists (1.1, revolution)"},
    {.id = "dragon-ogres",
     .traits = {.ignores_terror = true},
     .effect = "Immune to terror",
     .section = "army lists (revolution)"},
    {.id = "elephant",
     .traits = {.terror = true},
     .effect = "Causes terror",
     .section = "army lists (1.1, revolution)"},
    {.id = "favour-of-the-gods",
     .traits = {.terror = true},
     .effect = "Causes terror",
     .section = "army lists (1.1, revolution)"},
    {.id = "fenbeast",
     .traits = {.terror = true},
     .effect = "Causes terror",
     .section = "army lists (revolution)"},
    {.id = "flagellants",
     .traits = {.ignores_terror = true, .no_drive_back = true, .must_pursue = true},
     .effect = "Immune to terror; never driven back by shooting; must pursue when allowed",
     .section = "army lists (1.1, revolution)"},
    {.id = "fly",
     .traits = {.flies = true},
     .effect = "Flies: non-flyers cannot pursue it",
     .section = "army lists (1.1, revolution)"},
    {.id = "forest-spirits",
     .traits = {.ignores_terror = true},
     .effect = "Immune to terror",
     .section = "army lists (revolution)"},
    {.id = "glade-guard",
     .traits = {.shots_to_hit_delta = -1},
     .effect = "+1 to hit when shooting",
     .section = "army lists (revolution)"},
    {.id = "gorgers",
     .traits = {.pursuit = OM_WM_PURSUES_ANY},
     .effect = "May pursue any retreating enemy: cavalry, chariots and flyers",
     .section = "army lists (revolution)"},
    {.id = "grail-knights",
     .traits = {.ignores_terror = true, .charge_bonus_delta = +1},
     .effect = "Immune to terror; +1 more Attack per stand charging in the open",
     .section = "army lists (1.1, revolution)"},
    {.id = "great-taurus",
     .traits = {.terror = true},
     .effect = "Causes terror",
     .section = "army lists (revolution)"},
    {.id = "griffon",
     .traits = {.terror = true},
     .effect = "Causes terror",
     .section = "army lists (1.1, revolution)"},
    {.id = "gyrocopter",
     .traits = {.shots_save_delta = +1},
     .effect = "Its shots make armour one worse (6+ none)",
     .section = "army lists (1.1, revolution)"},
    {.id = "handgunners",
     .traits = {.shots_save_delta = +1},
     .effect = "Its shots make armour one worse (6+ none)",
     .section = "army lists (1.1, revolution)"},
    {.id = "handguns",
     .traits = {.shots_save_delta = +1},
     .effect = "Its shots make armour one worse (6+ none)",
     .section = "army lists (revolution)"},
    {.id = "hippogriff",
     .traits = {.terror = true},
     .effect = "Causes terror",
     .section = "army lists (revolution)"},
    {.id = "jezzails",
     .traits = {.shots_save_delta = +1},
     .effect = "Its shots make armour one worse (6+ none)",
     .section = "army lists (1.1, revolution)"},
    {.id = "knights",
     .traits = {.ignores_terror = true},
     .effect = "Immune to terror",
     .section = "army lists (1.1, revolution)"},
    {.id = "komainu",
     .traits = {.ignores_terror = true, .charge_bonus_delta = +1, .daemonic_instability = true},
     .effect = "Immune to terror; +1 more Attack per stand charging in the open; Daemonic "
     "Instability at the start of its own turns once it has lost a stand",
     .section = "army lists (revolution)"},
    {.id = "leadbelchers",
     .traits = {.shots_save_delta = +1},
     .effect = "Its shots make armour one worse (6+ none)",
     .section = "army lists (revolution)"},
    {.id = "magic-carpets",
     .traits = {.pursued_by_non_flyers = true},
     .effect = "Non-flyers may pursue it although it flies",
     .section = "army lists (1.1, revolution)"},
    {.id = "manticore",
     .traits = {.terror = true},
     .effect = "Causes terror",
     .section = "army lists (1.1, revolution)"},
    {.id = "mikata",
     .traits = {.ignores_terror = true, .no_drive_back = true, .must_pursue = true},
     .effect = "Immune to terror; never driven back by shooting; must pursue when allowed",
     .section = "army lists (revolution)"},
    {.id = "minotaurs",
     .traits = {.ignores_terror = true, .must_pursue = true},
     .effect = "Immune to terror; must pursue when allowed",
     .section = "army lists (revolution)"},
    {.id = "peasants",
     .traits = {.no_charge_bonus = true},
     .effect = "No charge bonus",
     .section = "army lists (1.1, revolution)"},
    {.id = "plague-monks",
     .traits = {.ignores_terror = true, .no_drive_back = true, .must_pursue = true},
     .effect = "Immune to terror; never driven back by shooting; must pursue when allowed",
     .section = "army lists (1.1, revolution)"},
    {.id = "rangers",
     .traits = {.pursuit = OM_WM_PURSUES_ANY},
     .effect = "May pursue any retreating enemy: cavalry, chariots and flyers",
     .section = "army lists (1.1, revolution)"},
    {.id = "red-guard",
     .traits = {.shots_save_delta = +1},
     .effect = "Its shots make armour one worse (6+ none)",
     .section = "army lists (revolution)"},
    {.id = "rhinox-riders",
     .traits = {.ignores_terror = true, .charge_bonus_delta = +1},
     .effect = "Immune to terror; +1 more Attack per stand charging in the open",
     .section = "army lists (revolution)"},
    {.id = "stegadon-mount",
     .traits = {.terror = true},
     .effect = "Causes terror",
     .section = "army lists (1.1, revolution)"},
    {.id = "tatsu",
     .traits = {.terror = true},
     .effect = "Causes terror",
     .section = "army lists (revolution)"},
    {.id = "tengu",
     .traits = {.ignores_terror = true, .daemonic_instability = true},
     .effect = "Immune to terror; Daemonic Instability at the start of its own turns once it "
     "has lost a stand (0-1 loses a stand, 6 regains one)",
     .section = "army lists (revolution)"},
    {.id = "treeman-ancient",
     .traits = {.terror = true},
     .effect = "Causes terror",
     .section = "army lists (revolution)"},
    {.id = "troll-slayers",
     .traits = {.ignores_terror = true, .attack_delta_vs_monsters = +1, .no_drive_back = true,
                .must_pursue = true},
     .effect = "Immune to terror; never driven back by shooting; must pursue when allowed; +1 "
     "Attack per stand against monsters",
     .section = "army lists (1.1, revolution)"},
    {.id = "ulfwerener",
     .traits = {.charge_bonus_delta = +1, .no_support = true, .pursuit = OM_WM_PURSUES_MOUNTED},
     .effect = "+1 more Attack per stand charging in the open; may pursue cavalry and chariots; "
     "can neither support nor be supported",
     .section = "army lists (revolution)"},
    {.id = "valkyries",
     .traits = {.ignores_terror = true},
     .effect = "Immune to terror",
     .section = "army lists (revolution)"},
    {.id = "waywatchers",
     .traits = {.shots_save_delta = +1, .shots_to_hit_delta = -1},
     .effect = "Its shots make armour one worse (6+ none); +1 to hit when shooting",
     .section = "army lists (revolution)"},
    {.id = "were-kin",
     .traits = {.terror = true},
     .effect = "Causes terror",
     .section = "army lists (revolution)"},
    {.id = "wild-riders",
     .traits = {.round1_front_attack_delta = +1},
     .effect = "+1 Attack per stand fighting to its front in the first round",
     .section = "army lists (revolution)"},
    {.id = "winged-lancers",
     .traits = {.ignores_terror = true, .round1_front_attack_delta = +1},
     .effect = "Immune to terror; +1 Attack per stand fighting to its front in the first round",
     .section = "army lists (revolution)"},
    {.id = "winged-nightmare",
     .traits = {.terror = true},
     .effect = "Causes terror",
     .section = "army lists (1.1, revolution)"},
    {.id = "witch-elves",
     .traits = {.ignores_terror = true, .no_drive_back = true, .must_pursue = true},
     .effect = "Immune to terror; never driven back by shooting; must pursue when allowed",
     .section = "army lists (1.1, revolution)"},
    {.id = "wyvern",
     .traits = {.terror = true},
     .effect = "Causes terror",
     .section = "army lists (1.1, revolution)"},
    {.id = "yozhin",
     .traits = {.terror = true},
     .effect = "Causes terror",
     .section = "army lists (revolution)"},
    /* Big monsters that are badly hurt (their army lists; rule_effects_fantasy P18): the 1.1
     * lists from half their Hits and even while engaged, Revolution's from
     * one more and only once no longer engaged (om_wm_ruleset). */
    {.id = "dragons",
     .traits = {.terror = true, .hurt = OM_WM_HURT_FROM_HALF},
     .in[OM_WM_RULES_REV] = &(const om_wm_traits){.terror = true, .hurt = OM_WM_HURT_ABOVE_HALF},
     .joined_shots = 3, .joined_range_cm = 20,
     .effect = "Causes terror; a Dragon Rider unit left with 3-5 hits (1.1) or 4-5 (Revolution, "
     "once no longer engaged) at the end of a Shooting or Combat phase is badly hurt: hits "
     "discarded, Hits 3, Attacks 3, Shots 2; a Dragon-riding character adds 3 shooting Attacks "
     "(Dragon fire) to the unit it joins",
     .section = "army lists (1.1, revolution); rule_effects_fantasy P18, A-14"},
    {.id = "greater-daemon",
     .traits = {.terror = true, .hurt = OM_WM_HURT_FROM_HALF},
     .in[OM_WM_RULES_REV] = &(const om_wm_traits){.terror = true, .hurt = OM_WM_HURT_ABOVE_HALF},
     .effect = "Causes terror; left with 3-5 hits (1.1) or 4-5 (Revolution, once no longer "
     "engaged) at the end of a Shooting or Combat phase it is badly hurt: hits discarded, Hits "
     "3, Attacks 4",
     .section = "army lists (1.1, revolution); rule_effects_fantasy P18"},
    {.id = "sphinx",
     .traits = {.terror = true, .hurt = OM_WM_HURT_FROM_HALF},
     .in[OM_WM_RULES_REV] = &(const om_wm_traits){.terror = true, .hurt = OM_WM_HURT_ABOVE_HALF},
     .effect = "Causes terror; left with 3-5 hits (1.1) or 4-5 (Revolution, once no longer "
     "engaged) at the end of a Shooting or Combat phase it is badly hurt: hits discarded, Hits "
     "3, Attacks 2",
     .section = "army lists (1.1, revolution); rule_effects_fantasy P18"},
    {.id = "stegadon",
     .traits = {.terror = true, .hurt = OM_WM_HURT_ABOVE_HALF},
     .effect = "Causes terror (the 1.1 \"fear\"); left with 6-9 hits at the end of a "
     "Shooting or Combat phase (Revolution: once no longer engaged) it is badly hurt: hits "
     "discarded, Hits 5, Attacks 5, Shots 2",
     .section = "army lists (1.1, revolution); rule_effects_fantasy P18, A-18"},
    {.id = "war-mammoth",
     .traits = {.terror = true, .hurt = OM_WM_HURT_ABOVE_HALF},
     .effect = "Causes terror; left with 6-9 hits at the end of a Shooting or Combat phase once "
     "no longer engaged it is badly hurt: hits discarded, Hits 5, Attacks 4",
     .section = "army lists (revolution); rule_effects_fantasy P18"},
    {.id = "dragon-ogre-shaggoth",
     .traits = {.terror = true, .hurt = OM_WM_HURT_ABOVE_HALF},
     .effect = "Causes terror; left with 5-7 hits at the end of a Shooting or Combat phase once "
     "no longer engaged it is badly hurt: hits discarded, Hits 4, Attacks 4",
     .section = "army lists (revolution); rule_effects_fantasy P18"},
    /* Mounts and companions that shoot with the unit their character joins:
     * terror, and Attacks at the usual to-hit and save (army lists; rule_effects_fantasy
     * */
    {.id = "chaos-dragon",
     .traits = {.terror = true},
     .joined_shots = 3, .joined_range_cm = 20,
     .effect = "Causes terror; the rider adds 3 shooting Attacks (Dragon fire) to the unit it "
     "joins, in its volleys and at chargers",
     .section = "army lists (1.1, revolution); rule_effects_fantasy A-14"},
    {.id = "zombie-dragon",
     .traits = {.terror = true},
     .joined_shots = 3, .joined_range_cm = 20,
     .effect = "Causes terror; the rider adds 3 shooting Attacks (Dragon fire) to the unit it "
     "joins, in its volleys and at chargers",
     .section = "army lists (1.1, revolution); rule_effects_fantasy A-14"},
    {.id = "forest-dragon",
     .traits = {.terror = true},
     .joined_shots = 3, .joined_range_cm = 20,
     .effect = "Causes terror; the rider adds 3 shooting Attacks (Dragon fire) to the unit it "
     "joins, in its volleys and at chargers",
     .section = "army lists (revolution); rule_effects_fantasy A-14"},
    {.id = "djinn",
     .traits = {.terror = true},
     .joined_shots = 2, .joined_range_cm = 30,
     .effect = "Causes terror; the Wizard's Djinn adds 2 shooting Attacks to the unit he joins "
     "(its Curse spell is magic, not modelled)",
     .section = "army lists (1.1, revolution); rule_effects_fantasy A-15"},
    /* Rules of one unit with several mechanisms (their army lists). */
    {.id = "grail-reliquae",
     .traits = {.ignores_terror = true, .no_charge_bonus = true, .attack_delta = +1,
                .no_drive_back = true, .never_confused = true},
     .effect = "Grail Pilgrims (the Peasants carrying it, and Peasants touching them: give them "
     "the id): +1 Attack per stand, still no charge bonus, immune to terror, never driven back "
     "or confused",
     .section = "army lists (revolution); rule_effects_fantasy P01, P02, P06, P11, P13"},
    {.id = "zealots",
     .traits = {.hates_chaos_undead = true},
     .effect = "Against a unit of a Chaos or Undead army list (Chaos, Daemons, Beastmen, Chaos "
     "Dwarfs, Skaven, Tomb Kings, Vampire Counts): +1 Attack per stand in the first round, "
     "whoever charged, and must pursue",
     .section = "army lists (revolution); rule_effects_fantasy A-12, A-29"},
    {.id = "screaming-bell",
     .traits = {.no_drive_back = true, .immobile = true, .destroyed_if_retreats = true},
     .effect = "Never driven back by shooting; destroyed if forced to retreat; pursues and "
     "falls back only when pushed by Skaven infantry (side key pushed); Skaven units touching "
     "it ignore terror (side key aura: always)",
     .section = "army lists (1.1, revolution); rule_effects_fantasy P11, P15, P16"},
    {.id = "temple-daemons",
     .traits = {.ignores_terror = true, .daemonic_instability = true},
     .effect = "Immune to terror; Daemonic Instability at the start of its own turns once it "
     "has lost a stand: a D6, -1 at one stand left; 0-1 loses a stand, 6 regains one (the 2-3 "
     "confusion ends with the Command phase it starts: Confusion > Confused Units)",
     .section = "army lists (revolution); rule_effects_fantasy P19"},
    /* War machines and shooters with shooting of their own (army lists; rule_effects_fantasy
     * P21). */
    {.id = "crossbowmen-and-dark-riders",
     .traits = {.shooter = OM_WM_SHOOTER_REPEATER},
     .effect = "Repeating crossbows: 2 shots a stand at a target within 15cm (side key "
     "target_cm), 1 beyond and at chargers",
     .section = "army lists (1.1, revolution); rule_effects_fantasy P21"},
    {.id = "helblaster",
     .traits = {.shooter = OM_WM_SHOOTER_HELBLASTER, .shots_save_delta = +1},
     .effect = "8, 4 or 2 Attacks within 10, 20 or 30cm (target_cm; 8 at chargers); armour one "
     "worse; three 1s to hit: no hits; four: it explodes, with 6 automatic hits on a charger",
     .section = "army lists (1.1, revolution); rule_effects_fantasy P21"},
    {.id = "death-rocket",
     .traits = {.shooter = OM_WM_SHOOTER_ROCKET, .shots_save_delta = +1,
                .no_stand_and_shoot = true},
     .effect = "A stone thrower of D6 Attacks saved at -1; a 1 rolls on the misfire chart: "
     "explodes, 1 Attack, overshoots the target or 2D6",
     .section = "army lists (revolution); rule_effects_fantasy P21, A-24"},
    {.id = "rocket-launcher",
     .traits = {.shooter = OM_WM_SHOOTER_ROCKET, .shots_save_delta = +1,
                .no_stand_and_shoot = true},
     .effect = "A stone thrower of D6 Attacks saved at -1; a 1 rolls on the misfire chart: "
     "explodes, 1 Attack, overshoots the target or 2D6",
     .section = "army lists (revolution); rule_effects_fantasy P21, A-24"},
    {.id = "flame-cannon",
     .traits = {.shooter = OM_WM_SHOOTER_FLAME_CANNON},
     .effect = "2D6 Attacks, at chargers too; a double rolls on the misfire chart (explodes; "
     "4+2D6 then explodes; 6 and 1D6 from then on; none; 10; 12+D6)",
     .section = "army lists (1.1, revolution); rule_effects_fantasy A-23"},
    /* The two Warp Lightning Cannons (army lists; rule_effects_fantasy A-22). */
    {.id = "warp-lightning-cannon",
     .traits = {.shooter = OM_WM_SHOOTER_WARP_LIGHTNING, .double_ones_confuse = true},
     .in[OM_WM_RULES_WM11] = &(const om_wm_traits){.shooter = OM_WM_SHOOTER_WARP_LIGHTNING},
     .in[OM_WM_RULES_REV] = &(const om_wm_traits){.double_ones_confuse = true},
     .effect = "Revolution: two 1s to hit in one shooting confuse it. 1.1: D6 Attacks, a "
     "1 turning D6 Attacks on itself; no drive backs; a unit it hurts is confused on a 6",
     .section = "army lists (1.1, revolution); rule_effects_fantasy A-22"},
    /* The two Trebuchets: 1.1 destroyed by any 6 and blind fire gated by a 6,
     * Revolution destroyed past 10cm and counting cover one lower (army lists;
     * rule_effects_fantasy ). */
    {.id = "trebuchet",
     .traits = {.shots_no_save = true, .shots_cover_one_lower = true, .no_stand_and_shoot = true,
                .blind_fire_needs_six = true, .static_machine = OM_WM_STATIC_LOST_ON_A_SIX},
     .in[OM_WM_RULES_WM11] = &(const om_wm_traits){.shots_no_save = true,
                                                   .no_stand_and_shoot = true,
                                                   .blind_fire_needs_six = true,
                                                   .static_machine = OM_WM_STATIC_LOST_ON_A_SIX},
     .in[OM_WM_RULES_REV] = &(const om_wm_traits){.shots_no_save = true,
                                                  .shots_cover_one_lower = true,
                                                  .no_stand_and_shoot = true,
                                                  .static_machine = OM_WM_STATIC_LOST_PAST_10CM},
     .effect = "No armour save, never at chargers; not moved by drive backs: destroyed by any 6 "
     "(1.1) or by more than 10cm (Revolution); Revolution counts cover one lower; "
     "shooting blind (blind_fire) hits on 6s, or in 1.1 needs a 6 first",
     .section = "army lists (1.1, revolution); rule_effects_fantasy A-11, A-21"},
    {.id = "araby-elephants",
     .traits = {.terror = true, .stampedes = true},
     .effect = "Cause terror; whatever would confuse them makes them stampede instead: no -1 "
     "Attack, and they must pursue while stampeding (the stampede move is battle level)",
     .section = "army lists (1.1, revolution); rule_effects_fantasy P13, P14"},
    /* The 1.1 Salamander shoots once at chargers (army lists; rule_effects_fantasy A-35). */
    {.id = "salamanders",
     .traits = {.shooter = OM_WM_SHOOTER_SALAMANDER, .shots_save_delta = +1,
                .salamander_shoots_chargers = true},
     .in[OM_WM_RULES_WM11] = &(const om_wm_traits){.shooter = OM_WM_SHOOTER_SALAMANDER,
                                                   .shots_save_delta = +1},
     .effect = "A Skink unit with its Salamander stand (give the Skinks stands: 4 and the id): "
     "the whole unit's shots make armour one worse; the Salamander shoots 2, kept to the last; "
     "at chargers 2 in Revolution, 1 in 1.1",
     .section = "army lists (1.1, revolution); rule_effects_fantasy A-35"},
    {.id = "war-wagon",
     .traits = {.shots_save_delta = +1, .war_wagon = true},
     .effect = "Kislev War Wagon: only its wagon stand fights and shoots (4 and 4, armour one "
     "worse); side key formation: column (open; Revolution retreats instead of being destroyed) "
     "or laager (defended, no flank or rear, holds when it loses, the enemy fighting on without "
     "pursuit bonus; never moved by drive backs, confused on a 6); Kislev infantry beside a "
     "laager: side key beside_laager",
     .section = "army lists (1.1, revolution); rule_effects_fantasy P10, P11, P16, P23"},
    /* Powers the scenario declares with side keys. */
    {.id = "anvil",
     .how = OM_WM_BY_SIDE_KEYS,
     .effect = "Struck in the Runesmith's Shooting phase, on a 4+ Dwarf units within 20cm "
     "ignore terror until his next turn: side key aura (roll, or always); dispelling is magic",
     .section = "army lists (1.1, revolution); rule_effects_fantasy A-26"},
    {.id = "shrine",
     .how = OM_WM_BY_SIDE_KEYS,
     .effect = "Invoked in the Shugenja's Shooting phase, on a 4+ units within 20cm ignore "
     "terror until his next turn: side key aura (roll, or always); dispelling is magic",
     .section = "army lists (revolution); rule_effects_fantasy A-26"},
    {.id = "tomb-king",
     .how = OM_WM_BY_SIDE_KEYS,
     .effect = "Once a battle, +1 Attack per stand of one unit within 20cm for a Combat phase: "
     "side keys power: tomb-king and power_turn",
     .section = "army lists (1.1, revolution); rule_effects_fantasy A-27"},
    {.id = "oathstone",
     .how = OM_WM_BY_SIDE_KEYS,
     .effect = "Once a game the Hero joined to a unit (not Troll Slayers) gives it and himself "
     "+1 Attack per stand and immunity to terror for a Combat phase: side keys power: oathstone "
     "and power_turn",
     .section = "army lists (revolution); rule_effects_fantasy A-27"},
    /* Ids that change nothing the engine does not already do. */
    {.id = "elven-bolt-thrower",
     .how = OM_WM_BY_DEFAULT,
     .effect = "Shoots as missile troops do: armour saves allowed, may shoot at chargers, no "
     "skewer (its Shots are in its stat line)",
     .section = "Warmaster Revolution, Artillery & Machines > Artillery > Elven Bolt Thrower"},
    {.id = "triple-bows",
     .traits = {.shots_no_save = true, .line_fire = true},
     .effect = "Rulebook Bolt Throwers: no armour save; +1 Attack per further stand skewered "
     "(line_stands)",
     .section = "army lists (revolution); Warmaster Revolution, Artillery & Machines > Artillery > "
                "Bolt Thrower"},
    {.id = "giant",
     .how = OM_WM_BY_DEFAULT,
     .effect = "No rule text in the sources beyond sieges: it fights by its stat line",
     .section = "army lists (1.1, revolution); no rule text (rule_effects_fantasy A-20)"},
};

const om_wm_special *om_wm_special_find(const char *id)
{
    for (size_t i = 0; i < sizeof om_wm_specials / sizeof om_wm_specials[0]; i++)
        if (strcmp(om_wm_specials[i].id, id) == 0)
            return &om_wm_specials[i];
    return NULL;
}

const om_wm_traits *om_wm_special_traits(const om_wm_special *sp, const om_wm_ruleset *rs)
{
    return rs != NULL && sp->in[rs->id] != NULL ? sp->in[rs->id] : &sp->traits;
}

size_t om_wm_special_count(void) { return sizeof om_wm_specials / sizeof om_wm_specials[0]; }

const om_wm_special *om_wm_special_at(size_t i)
{
    return i < om_wm_special_count() ? &om_wm_specials[i] : NULL;
}
