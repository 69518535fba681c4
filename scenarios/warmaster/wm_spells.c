/*
 * wm_spells.c: the table of the fantasy Warmaster armies' spells as the
 * engine casts them (wm_spells.h), and the setup of a battle side's magic
 * from its army list. The casting value and range of every spell are the
 * army data's (scenarios/armies/, the lists' Spells); this table gives each
 * spell its mechanism (engine/warmaster/magic.h) read from the spell's text
 * in the army data, or says why it is not modelled. Where Warmaster 1.1 and
 * Revolution differ, the row names its rule set (Storm of Stone: D3 Attacks
 * in 1.1, three in Revolution); casting values and ranges differ through
 * each rule set's army data. Warmaster Ancients has no magic (its rulebook
 * has no spells, and its army data none).
 */
#include "wm_spells.h"

#include <stdio.h>
#include <string.h>

#include "army.h"

/* The model of the spells that give one unit terror for the Combat phase
 * (Word of Fear, Aspect of Wulfen). */
#define COMBAT_TERROR_MODEL                                                                  \
    "Modelled in part: one friendly unit in range, seen or not, causes terror for this "     \
    "turn's Combat phase; cast only on a unit engaged in combat (a unit that would gain it " \
    "only by an advance is left out)."

/* What the four spells that forbid a unit to charge (Dominion, Mazdamundi's
 * Revenge, Doom and Despair, Lion Dogs Attack) play, in one text. */
#define NO_CHARGE_MODEL                                                                      \
    "One enemy unit in range, seen or not, engaged or not: until the end of the enemy's "    \
    "next turn it charges neither by order nor by initiative (even when it must), never "    \
    "pursues and never advances."

/* One row per spell of the army lists; a row naming no rule set or army
 * serves every list whose spell has that id. */

static const om_wm_spell_rule spell_rules[] = {
    {.id = "curse-of-chaos", .effect = OM_WM_SPELL_MISSILE, .attacks = 3, .no_save = true,
     .drive_back = true, .sight = true,
     .model = "Three shooting Attacks at one unengaged enemy unit the Wizard sees, armour has "
              "no effect, driven back as by shooting."},
    {.id = "sorcerous-blast", .effect = OM_WM_SPELL_MISSILE, .attacks = 3, .no_save = true,
     .drive_back = true, .sight = true,
     .model = "Three shooting Attacks at one unengaged enemy unit the Wizard sees, armour has "
              "no effect, driven back as by shooting."},
    {.id = "hail-of-destruction", .effect = OM_WM_SPELL_MISSILE, .attacks = 3,
     .no_save = true, .drive_back = true, .sight = true,
     .model = "Three shooting Attacks at one unengaged enemy unit the Wizard sees, armour has "
              "no effect, driven back as by shooting."},
    {.id = "warp-lightning", .effect = OM_WM_SPELL_MISSILE, .attacks = 3, .no_save = true,
     .drive_back = true, .sight = true,
     .model = "Three shooting Attacks at one unengaged enemy unit the Wizard sees, armour has "
              "no effect, driven back as by shooting."},
    {.id = "death-bolt", .effect = OM_WM_SPELL_MISSILE, .attacks = 3, .no_save = true,
     .drive_back = true, .sight = true,
     .model = "Three shooting Attacks at one unengaged enemy unit the Wizard sees, armour has "
              "no effect, driven back as by shooting."},
    {.id = "icy-blast", .effect = OM_WM_SPELL_MISSILE, .attacks = 3, .no_save = true,
     .drive_back = true, .sight = true,
     .model = "Three shooting Attacks at one unengaged enemy unit the Wizard sees, armour has "
              "no effect, driven back as by shooting."},
    {.id = "gaze-of-sotek", .effect = OM_WM_SPELL_MISSILE, .attacks = 3, .no_save = true,
     .drive_back = true, .sight = true,
     .model = "Three shooting Attacks at one unengaged enemy unit the Wizard sees, armour has "
              "no effect, driven back as by shooting."},
    {.id = "brain-busta", .effect = OM_WM_SPELL_MISSILE, .attacks = 3, .no_save = true,
     .drive_back = true, .sight = true,
     .model = "Three shooting Attacks at one unengaged enemy unit the Wizard sees, armour has "
              "no effect, driven back as by shooting."},
    {.id = "chaos-bolt", .effect = OM_WM_SPELL_MISSILE, .attacks = 3, .no_save = true,
     .drive_back = true, .sight = true,
     .model = "Three shooting Attacks at one unengaged enemy unit the Wizard sees, armour has "
              "no effect, driven back as by shooting."},
    {.id = "bone-cruncher", .effect = OM_WM_SPELL_MISSILE, .attacks = 3, .no_save = true,
     .drive_back = true, .sight = true,
     .model = "Three shooting Attacks at one unengaged enemy unit the Wizard sees, armour has "
              "no effect, driven back as by shooting."},
    {.id = "storm-of-hail", .effect = OM_WM_SPELL_MISSILE, .attacks = 3, .no_save = true,
     .drive_back = true, .sight = true,
     .model = "Three shooting Attacks at one unengaged enemy unit the Wizard sees, armour has "
              "no effect, driven back as by shooting."},
    {.id = "ball-of-flame", .effect = OM_WM_SPELL_MISSILE, .attacks = 3, .drive_back = true,
     .sight = true,
     .model = "Modelled in part: three shooting Attacks with the usual saves, driven back, on "
              "the one unengaged enemy unit the Wizard aims the line at; other units under the "
              "line (friends included) and engaged units carrying hits into combat are left "
              "out."},
    {.id = "gotcha", .effect = OM_WM_SPELL_MISSILE, .attacks = 3, .drive_back = true,
     .sight = true,
     .model = "Modelled in part: three shooting Attacks with the usual saves, driven back, on "
              "the one unengaged enemy unit the Wizard aims the line at; other units under the "
              "line (friends included) and engaged units carrying hits into combat are left "
              "out."},
    {.id = "doom-bolt", .effect = OM_WM_SPELL_MISSILE, .attacks = 3, .drive_back = true,
     .sight = true,
     .model = "Modelled in part: three shooting Attacks with the usual saves, driven back, on "
              "the one unengaged enemy unit the Wizard aims the line at; other units under the "
              "line (friends included) and engaged units carrying hits into combat are left "
              "out."},
    {.id = "sunstrike", .effect = OM_WM_SPELL_MISSILE, .attacks = 3, .drive_back = true,
     .sight = true,
     .model = "Modelled in part: three shooting Attacks with the usual saves, driven back, on "
              "the one unengaged enemy unit the Wizard aims the line at; other units under the "
              "line (friends included) and engaged units carrying hits into combat are left "
              "out."},
    {.id = "meteor-storm", .effect = OM_WM_SPELL_MISSILE, .attacks = 3, .drive_back = true,
     .sight = true,
     .model = "Modelled in part: three shooting Attacks with the usual saves, driven back, on "
              "the one unengaged enemy unit the Wizard aims the line at; other units under the "
              "line (friends included) and engaged units carrying hits into combat are left "
              "out."},
    {.id = "thunder-of-fo-wor", .effect = OM_WM_SPELL_MISSILE, .attacks = 3,
     .drive_back = true, .sight = true,
     .model = "Modelled in part: three shooting Attacks with the usual saves, driven back, on "
              "the one unengaged enemy unit the Wizard aims the line at; other units under the "
              "line (friends included) and engaged units carrying hits into combat are left "
              "out."},
    {.id = "black-horror", .effect = OM_WM_SPELL_MISSILE, .attacks = 4, .no_save = true,
     .sight = true,
     .model = "Four Attacks with no armour saves at one unengaged enemy unit the Sorceress "
              "sees; never driven back."},
    {.id = "plague", .effect = OM_WM_SPELL_MISSILE, .attacks = 6,
     .model = "Six Attacks worked out in the usual way (saves allowed) at one unengaged enemy "
              "unit in range, seen or not; never driven back."},
    {.id = "foot-of-gork", .effect = OM_WM_SPELL_MISSILE, .attacks = 6,
     .model = "Six Attacks worked out in the usual way (saves allowed) at one unengaged enemy "
              "unit in range, seen or not; never driven back."},
    {.ruleset = "warmaster-1.1", .id = "storm-of-stone", .effect = OM_WM_SPELL_BURST,
     .attacks = 1, .d3 = true,
     .model = "Modelled in part: D3 Attacks worked out normally at every unengaged enemy unit "
              "within range, never driven back; engaged units carrying hits into combat are "
              "left out."},
    {.ruleset = "warmaster-revolution", .id = "storm-of-stone", .effect = OM_WM_SPELL_BURST,
     .attacks = 3,
     .model = "Modelled in part: three Attacks worked out normally at every unengaged enemy "
              "unit within range, never driven back; engaged units carrying hits into combat "
              "are left out."},
    {.id = "volcanic-eruption", .effect = OM_WM_SPELL_BURST, .attacks = 3,
     .model = "Modelled in part: three Attacks worked out normally at every unengaged enemy "
              "unit within 30cm, never driven back; engaged units carrying hits into combat "
              "are left out."},
    {.id = "waaagh", .effect = OM_WM_SPELL_BOOST, .attacks = 1, .per_stand = true,
     .with_characters = true, .not_on = "trolls ogres giant",
     .model = "+1 Attack to every stand, and to each character joined, of one friendly "
              "greenskin unit engaged in combat within range, for this turn's Combat phase "
              "(Trolls, Ogres and Giants barred)."},
    {.id = "ferocity-of-tigers", .effect = OM_WM_SPELL_BOOST, .attacks = 1, .per_stand = true,
     .phase = OM_WM_LASTING_FEARLESS,
     .model = "+1 Attack to every stand of one friendly unit engaged in combat within range, "
              "and immune to terror, for this turn's Combat phase."},
    {.id = "power-of-herd", .effect = OM_WM_SPELL_BOOST, .attacks = 1, .per_stand = true,
     .all_in_range = true, .only = "gor ungor centigors",
     .model = "Modelled in part: +1 Attack to every stand of every Gor, Ungor and Centigor "
              "unit engaged in combat within range for this turn's Combat phase (not only the "
              "first engagement: the turn has one); characters' share left out."},
    {.id = "boon-of-chaos", .effect = OM_WM_SPELL_BOOST, .attacks = 1, .per_stand = true,
     .own_unit = true, .with_characters = true,
     .model = "+1 Attack to every stand, and to each character joined, of the unit the "
              "Sorcerer has joined when it is engaged in combat, for this turn's Combat phase."},
    {.id = "bull-gorger", .effect = OM_WM_SPELL_BOOST, .attacks = 1, .per_stand = true,
     .own_unit = true, .with_characters = true,
     .model = "+1 Attack to every stand, the Butcher's own included, of the unit he has joined "
              "when it is engaged in combat, for this turn's Combat phase."},
    {.id = "holy-fervour", .effect = OM_WM_SPELL_BOOST, .attacks = 1, .per_stand = true,
     .own_unit = true, .with_characters = true,
     .model = "+1 Attack to every stand, and to each character joined, of the unit the Priest "
              "is with when it is engaged in combat, for this turn's Combat phase."},
    {.id = "light-of-battle", .effect = OM_WM_SPELL_BOOST, .attacks = 1, .all_in_range = true,
     .model = "Modelled in part: +1 Attack to every friendly unit engaged in combat within "
              "range for this turn's Combat phase; the +1 of each character joined (Light of "
              "Battle) is left out."},
    {.id = "daemonic-rage", .effect = OM_WM_SPELL_BOOST, .attacks = 1, .all_in_range = true,
     .model = "Modelled in part: +1 Attack to every friendly unit engaged in combat within "
              "range for this turn's Combat phase; the +1 of each character joined (Light of "
              "Battle) is left out."},
    {.id = "monster-bear", .effect = OM_WM_SPELL_BOOST, .attacks = 2, .own_unit = true,
     .phase = OM_WM_LASTING_TERROR,
     .model = "+2 Attacks to the unit the Wizard has joined when it is engaged in combat, and "
              "it causes terror, for this turn's Combat phase."},
    {.id = "chill", .effect = OM_WM_SPELL_WEAKEN, .attacks = 1, .per_stand = true,
     .model = "Modelled in part: -1 Attack to every stand of one enemy unit engaged in combat "
              "within range, for this turn's Combat phase; joined characters keep their bonus."},
    {.id = "wither", .effect = OM_WM_SPELL_WEAKEN, .attacks = 1, .per_stand = true,
     .model = "Modelled in part: -1 Attack to every stand of one enemy unit engaged in combat "
              "within range, for this turn's Combat phase; joined characters keep their bonus."},
    {.id = "freeze", .effect = OM_WM_SPELL_SHATTER, .attacks = 1,
     .model = "A D6 above the target's Hits destroys one stand of one unengaged enemy unit in "
              "range, seen or not; never driven back."},
    {.id = "mirage", .effect = OM_WM_SPELL_NOT_MODELLED,
     .model = "An illusionary unit from outside the list: the battle has no units but the "
              "lists'."},
    {.id = "curse-of-the-djinn", .effect = OM_WM_SPELL_NOT_MODELLED,
     .model = "Re-rolled successful saves in combat: no re-roll of saves in the combat engine."},
    {.id = "shield-of-combat", .effect = OM_WM_SPELL_NOT_MODELLED,
     .model = "Re-rolled failed saves for two turns: no re-roll of saves in the combat engine."},
    {.ruleset = "warmaster-1.1", .id = "aerial-shield", .effect = OM_WM_SPELL_NOT_MODELLED,
     .model = "Re-rolled failed saves against shooting for friends near the Enchantress: no "
              "re-roll of saves in the shooting engine."},
    {.ruleset = "warmaster-revolution", .id = "aerial-shield", .effect = OM_WM_SPELL_LASTING,
     .lasting = OM_WM_LASTING_SHOT_AT,
     .model = "One friendly unit in range, seen or not: enemies shooting at it, by missiles or "
              "spells, need one more to hit (never worse than 6+) until the Enchantress's next "
              "turn (the rule's next Shooting phase: stand and shoot in her Command phase is "
              "left out)."},
    {.id = "eerie-mist", .effect = OM_WM_SPELL_LASTING,
     .lasting = OM_WM_LASTING_COMMAND | OM_WM_LASTING_NO_INITIATIVE, .amount = 1,
     .model = "One enemy unit in range, seen or not: no initiative and -1 Command on orders "
              "to it or its brigade until the end of the enemy's next turn."},
    {.id = "traitor-kin", .effect = OM_WM_SPELL_LASTING,
     .lasting = OM_WM_LASTING_COMMAND | OM_WM_LASTING_NO_INITIATIVE, .amount = 1,
     .troops = OM_WM_SPELL_TROOP(OM_WM_CAVALRY) | OM_WM_SPELL_TROOP(OM_WM_CHARIOT) |
               OM_WM_SPELL_TROOP(OM_WM_MONSTER),
     .model = "One enemy unit of cavalry, chariots or monsters in range, seen or not: no "
              "initiative and -1 Command on orders to it or its brigade until the end of the "
              "enemy's next turn."},
    {.id = "lady-s-favour", .effect = OM_WM_SPELL_MOVE, .attacks = 1,
     .model = "One unengaged friendly unit in range, seen or not, moves once as if "
              "ordered, alone and by its own plan (a charge, an advance), after the casting; "
              "its joined characters stay where they are and leave it."},
    {.id = "voice-of-command", .effect = OM_WM_SPELL_MOVE, .attacks = 1,
     .model = "One unengaged friendly unit in range, seen or not, moves once as if "
              "ordered, alone and by its own plan (a charge, an advance), after the casting; "
              "its joined characters stay where they are and leave it."},
    {.id = "vanhel-s-danse-macabre", .effect = OM_WM_SPELL_MOVE, .attacks = 1,
     .not_on = "ghouls",
     .model = "One unengaged friendly unit but Ghouls in range, seen or not, moves once as if "
              "ordered, alone and by its own plan (a charge, an advance), after the casting; "
              "its joined characters stay where they are and leave it."},
    {.id = "hunting-for-gore", .effect = OM_WM_SPELL_MOVE, .attacks = 1,
     .troops = OM_WM_SPELL_TROOP(OM_WM_INFANTRY) | OM_WM_SPELL_TROOP(OM_WM_CAVALRY),
     .model = "One unengaged friendly unit of infantry or cavalry in range, seen or not, "
              "moves once as if ordered, alone and by its own plan (a charge, an advance), "
              "after the casting; its joined characters stay where they are and leave it."},
    {.id = "doctrine-of-sigmar", .effect = OM_WM_SPELL_MOVE, .attacks = 1,
     .model = "One unengaged friendly unit in range, seen or not, moves once as if "
              "ordered, alone and by its own plan (a charge, an advance), after the casting; "
              "its joined characters stay where they are and leave it."},
    {.id = "wings-in-the-jungle", .effect = OM_WM_SPELL_MOVE, .attacks = 1, .own_unit = true,
     .with_caster = true,
     .model = "The unengaged unit the Wizard has joined moves once as if ordered, alone and "
              "by its own plan (a charge, an advance), after the casting; the Wizard moves "
              "with it and stays joined, other joined characters stay where they are and "
              "leave it."},
    {.id = "call-of-the-hunt", .effect = OM_WM_SPELL_NOT_MODELLED,
     .model = "A charge in the Shooting phase: not modelled."},
    {.id = "anger-of-the-gods", .effect = OM_WM_SPELL_LASTING, .lasting = OM_WM_LASTING_COMMAND,
     .amount = 1, .aura = true,
     .model = "-1 Command on every order given in the enemy's next turn to an enemy unit (or "
              "a brigade with one) within range of the Sorcerer as the order is given."},
    {.id = "sand-storm", .effect = OM_WM_SPELL_LASTING, .lasting = OM_WM_LASTING_COMMAND,
     .amount = 1, .aura = true,
     .model = "-1 Command on every order given in the enemy's next turn to an enemy unit (or "
              "a brigade with one) within range of the Sorcerer as the order is given."},
    {.id = "downpour", .effect = OM_WM_SPELL_LASTING, .lasting = OM_WM_LASTING_COMMAND,
     .amount = 1, .aura = true,
     .model = "-1 Command on every order given in the enemy's next turn to an enemy unit (or "
              "a brigade with one) within range of the Druid as the order is given."},
    {.id = "spite-of-low-key", .effect = OM_WM_SPELL_NOT_MODELLED,
     .model = "Enemy characters' doubles blunder in their next Command phase: not modelled."},
    {.id = "rage-of-chaos", .effect = OM_WM_SPELL_NOT_MODELLED,
     .model = "Bonus Attacks rolled die by die at the player's choice, doubles turning them on "
              "the unit: the stopping choice is not modelled."},
    {.id = "death-frenzy", .effect = OM_WM_SPELL_NOT_MODELLED,
     .model = "Bonus Attacks rolled die by die at the player's choice, doubles turning them on "
              "the unit: the stopping choice is not modelled."},
    {.id = "frenzy-of-chaos", .effect = OM_WM_SPELL_NOT_MODELLED,
     .model = "Re-rolled failed Attacks in combat: not in the combat engine's per-spell "
              "inputs."},
    {.id = "dominion", .effect = OM_WM_SPELL_LASTING, .lasting = OM_WM_LASTING_NO_CHARGE,
     .model = NO_CHARGE_MODEL},
    {.id = "mazdamundi-s-revenge", .effect = OM_WM_SPELL_LASTING,
     .lasting = OM_WM_LASTING_NO_CHARGE,
     .model = NO_CHARGE_MODEL},
    {.id = "doom-and-despair", .effect = OM_WM_SPELL_LASTING, .lasting = OM_WM_LASTING_NO_CHARGE,
     .model = NO_CHARGE_MODEL},
    {.id = "lion-dogs-attack", .effect = OM_WM_SPELL_LASTING, .lasting = OM_WM_LASTING_NO_CHARGE,
     .model = NO_CHARGE_MODEL},
    {.id = "weird-enchantment", .effect = OM_WM_SPELL_LASTING,
     .lasting = OM_WM_LASTING_HALF_PACE,
     .model = "Modelled in part: one enemy unit in range, seen or not, moves by order and "
              "charges (by order or initiative) at half pace until the end of the enemy's "
              "next turn (irregular formations not halved twice); its blunder moves and "
              "evades at full pace, and that it counts enemies as terrifying and loses its "
              "own terror, are not modelled."},
    {.id = "divine-curse", .effect = OM_WM_SPELL_LASTING,
     .lasting = OM_WM_LASTING_HALF_PACE,
     .model = "Modelled in part: one enemy unit in range, seen or not, moves by order and "
              "charges (by order or initiative) at half pace in its next Command phase; its "
              "blunder moves and evades at full pace, and that it counts enemies as "
              "terrifying and loses its own terror, are not modelled."},
    {.id = "soul-stealer", .effect = OM_WM_SPELL_NOT_MODELLED,
     .model = "Attacks on a touching enemy whose hits are carried into the first round of "
              "combat: carried hits are not modelled."},
    {.id = "touch-of-death", .effect = OM_WM_SPELL_NOT_MODELLED,
     .model = "Attacks on a touching enemy whose hits are carried into the first round of "
              "combat: carried hits are not modelled."},
    {.id = "curse-of-years", .effect = OM_WM_SPELL_NOT_MODELLED,
     .model = "Attacks on a touching enemy whose hits are carried into the first round of "
              "combat: carried hits are not modelled."},
    {.id = "flaming-hand", .effect = OM_WM_SPELL_NOT_MODELLED,
     .model = "Attacks on a touching enemy whose hits are carried into the first round of "
              "combat: carried hits are not modelled."},
    {.id = "teleport", .effect = OM_WM_SPELL_NOT_MODELLED,
     .model = "Moves the Wizard anywhere and gives a second spell: moving characters by spell "
              "is not modelled."},
    {.id = "skitterleap", .effect = OM_WM_SPELL_NOT_MODELLED,
     .model = "Moves the Wizard anywhere and gives a second spell: moving characters by spell "
              "is not modelled."},
    {.id = "heaven-s-fire", .effect = OM_WM_SPELL_VOLLEY, .attacks = 1, .amount = 1,
     .troops = OM_WM_SPELL_TROOP(OM_WM_INFANTRY) | OM_WM_SPELL_TROOP(OM_WM_CAVALRY),
     .model = "One unengaged friendly unit of infantry or cavalry that shoots, in range, seen or "
              "not, shoots once more after every unit's own volley, at -1 to hit (never worse "
              "than 6+), at the closest enemy it sees as any volley does."},
    {.id = "glory-of-cathay", .effect = OM_WM_SPELL_VOLLEY, .attacks = 1, .amount = 1,
     .troops = OM_WM_SPELL_TROOP(OM_WM_INFANTRY) | OM_WM_SPELL_TROOP(OM_WM_CHARIOT),
     .model = "One unengaged friendly unit of infantry or chariots that shoots, in range, seen or "
              "not, shoots once more after every unit's own volley, at -1 to hit (never worse "
              "than 6+), at the closest enemy it sees as any volley does."},
    {.id = "gerroff", .effect = OM_WM_SPELL_PUSH, .attacks = 5,
     .model = "Modelled in part: one unengaged enemy unit in range, seen or not, is driven "
              "back 5D6cm straight toward its own table edge at once, as a drive back from "
              "shooting (the defended discount, confused by any 6, what lies that way) but "
              "never routed; straight along the table's depth (the shortest route to that "
              "edge), and its own move is not told in a replay."},
    {.id = "raise-dead", .effect = OM_WM_SPELL_NOT_MODELLED,
     .model = "Creates a Skeleton unit in a combat: units created during a battle are not "
              "modelled."},
    {.id = "summon-fenbeast", .effect = OM_WM_SPELL_NOT_MODELLED,
     .model = "Creates a Fenbeast unit: units created during a battle are not modelled."},
    {.id = "summon-daemons", .effect = OM_WM_SPELL_NOT_MODELLED,
     .model = "A Daemon unit regains a stand: stands returned are not modelled."},
    {.id = "shield-of-the-old-ones", .effect = OM_WM_SPELL_COMBAT,
     .phase = OM_WM_LASTING_ARMOUR, .amount = 4,
     .model = "Modelled in part: one friendly unit engaged in combat in range, seen or not, "
              "has its armour one better (none counting 6+) for this turn's Combat phase, "
              "unless it is 4+ already with its own combat bonus; a Banner of Shielding's "
              "bonus is not counted toward the 4+, and saves against shooting at the charge "
              "in that phase gain it too."},
    {.id = "mork-save-uz", .effect = OM_WM_SPELL_LASTING, .lasting = OM_WM_LASTING_SAVE,
     .amount = 5,
     .model = "One friendly unit in range takes a 5+ save, or its own if better, against "
              "shooting, spells that allow saves and in combat until the Shaman's next "
              "turn."},
    {.id = "troll-guts", .effect = OM_WM_SPELL_NOT_MODELLED,
     .model = "+1 Hit a stand in combat: Hits changes by spell are not modelled."},
    {.id = "tranquility-of-heaven", .effect = OM_WM_SPELL_LASTING,
     .lasting = OM_WM_LASTING_FEARLESS, .all_in_range = true,
     .model = "Every friendly unit within range of the Sorcerer as he casts it is immune to "
              "terror until the end of the enemy's next turn."},
    {.id = "word-of-fear", .effect = OM_WM_SPELL_COMBAT, .phase = OM_WM_LASTING_TERROR,
     .model = COMBAT_TERROR_MODEL},
    {.id = "aspect-of-wulfen", .effect = OM_WM_SPELL_COMBAT, .phase = OM_WM_LASTING_TERROR,
     .model = COMBAT_TERROR_MODEL},
    {.id = "twilight-host", .effect = OM_WM_SPELL_LASTING, .lasting = OM_WM_LASTING_TERROR,
     .model = "One friendly unit in range, seen or not, causes terror until the Wood Elves' "
              "next turn (the rule's next magic phase)."},
    {.id = "mists-of-albion", .effect = OM_WM_SPELL_LASTING,
     .lasting = OM_WM_LASTING_DEFENDED, .troops = OM_WM_SPELL_TROOP(OM_WM_INFANTRY),
     .model = "One friendly infantry unit in range, seen or not, counts as defended in the open "
              "(against shooting, drive backs and in combat) until the caster's next turn or "
              "until it is driven back or retreats."},
    {.id = "tree-singing", .effect = OM_WM_SPELL_LASTING,
     .lasting = OM_WM_LASTING_DEFENDED, .unengaged = true,
     .troops = OM_WM_SPELL_TROOP(OM_WM_INFANTRY),
     .model = "One unengaged friendly infantry unit in range, seen or not, counts as defended "
              "in the open (against shooting, drive backs and in combat) until the caster's "
              "next turn or until it is driven back or retreats."},
    {.id = "sanctuary", .effect = OM_WM_SPELL_LASTING,
     .lasting = OM_WM_LASTING_DEFENDED | OM_WM_LASTING_FORTIFIED, .own_unit = true,
     .troops = OM_WM_SPELL_TROOP(OM_WM_INFANTRY) | OM_WM_SPELL_TROOP(OM_WM_ARTILLERY),
     .model = "Modelled in part: the Priest's unit counts as defended in the open, fortified "
              "if defended already, until the Priest's next turn (when he may cast it again) "
              "or until it is driven back or retreats; cavalry, which the engine never counts "
              "defended, are left out."},
    {.id = "tooth-cracker", .effect = OM_WM_SPELL_LASTING, .lasting = OM_WM_LASTING_STEADY,
     .model = "One friendly unit in range is neither driven back by shooting nor confused "
              "until the Butcher's next turn."},
    {.id = "eye-of-the-raven", .effect = OM_WM_SPELL_NOT_MODELLED,
     .model = "A re-roll of any die until the next Command phase: not modelled."},
    {.id = "fury-of-the-forest", .effect = OM_WM_SPELL_NOT_MODELLED,
     .model = "Attacks around a chosen wood: targeting by terrain piece is not modelled."},
};

size_t om_wm_spell_rule_count(void)
{
    return sizeof spell_rules / sizeof spell_rules[0];
}

const om_wm_spell_rule *om_wm_spell_rule_at(size_t i)
{
    return i < om_wm_spell_rule_count() ? &spell_rules[i] : NULL;
}

const om_wm_spell_rule *om_wm_spell_rule_find(const char *ruleset, const char *army,
                                              const char *id)
{
    const om_wm_spell_rule *any = NULL;
    for (size_t i = 0; i < om_wm_spell_rule_count(); i++) {
        const om_wm_spell_rule *r = &spell_rules[i];
        if (strcmp(r->id, id) != 0 || (r->ruleset != NULL && strcmp(r->ruleset, ruleset) != 0) ||
            (r->army != NULL && strcmp(r->army, army) != 0))
            continue;
        if (r->army != NULL)
            return r;
        if (any == NULL)
            any = r;
    }
    return any;
}

/* Whether `id` is one of the space-separated ids of `list`. */
static bool listed(const char *list, const char *id)
{
    const size_t n = strlen(id);
    for (const char *p = list; p != NULL && *p != '\0';) {
        const char *end = strchr(p, ' ');
        const size_t len = end != NULL ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, id, n) == 0)
            return true;
        p = end != NULL ? end + 1 : NULL;
    }
    return false;
}

bool om_wm_spells_anti_magic_rule(const char *id)
{
    return strcmp(id, "runesmith") == 0 || strcmp(id, "shugenja") == 0;
}

/* The Wizards' magic items a battle plays (Warmaster Revolution, Magic Items
 * > Devices of Power), by id. */
static const struct {
    const char *id;
    unsigned device;
} devices[] = {
    {"ring-of-magic", OM_WM_DEVICE_RING},
    {"wand-of-power", OM_WM_DEVICE_WAND},
    {"rod-of-repetition", OM_WM_DEVICE_ROD},
    {"scroll-of-dispelling", OM_WM_DEVICE_SCROLL},
    {"staff-of-spellbinding", OM_WM_DEVICE_STAFF},
};

unsigned om_wm_spells_device_of_item(const char *id)
{
    for (size_t i = 0; id != NULL && i < sizeof devices / sizeof devices[0]; i++)
        if (strcmp(devices[i].id, id) == 0)
            return devices[i].device;
    return 0u;
}

/* The Generals' devices of power a battle plays (Warmaster Revolution, Magic
 * Items > Devices of Power; regalia.h), by id. */
static const struct {
    const char *id;
    unsigned regalia;
} regalia[] = {
    {"crown-of-command", OM_WM_REGALIA_CROWN},
    {"helm-of-dominion", OM_WM_REGALIA_HELM},
    {"orb-of-majesty", OM_WM_REGALIA_ORB},
    {"sceptre-of-sovereignty", OM_WM_REGALIA_SCEPTRE},
};

unsigned om_wm_spells_regalia_of_item(const char *id)
{
    for (size_t i = 0; id != NULL && i < sizeof regalia / sizeof regalia[0]; i++)
        if (strcmp(regalia[i].id, id) == 0)
            return regalia[i].regalia;
    return 0u;
}

bool om_wm_spells_character_item_played(const char *id)
{
    return om_wm_spells_device_of_item(id) != 0 || om_wm_spells_regalia_of_item(id) != 0;
}

/* Whether the army entry of a character carries an anti-magic rule. */
static bool anti_magic_rule(const om_army_unit *u)
{
    for (size_t i = 0; u != NULL && i < u->rules_count; i++)
        if (om_wm_spells_anti_magic_rule(u->rules[i]))
            return true;
    return false;
}

om_status om_wm_spells_setup(const om_wm_armylist *l, unsigned side, const unsigned *index,
                             unsigned first_character, om_wm_turn *turn)
{
    om_wm_spellbook *b = &turn->magic;
    om_army *army = NULL;
    om_status st;
    b->n[side] = 0;
    if (strcmp(l->ruleset, "warmaster-ancients") == 0)
        return OM_OK; /* no magic */
    if ((st = om_army_load(l->ruleset, l->army, &army)) != OM_OK)
        return st;
    if (army->spells_count > OM_WM_SPELLS_MAX) {
        st = OM_ERROR(OM_EINVAL, "%s/%s has %zu spells; the engine holds %d", l->ruleset,
                      l->army, army->spells_count, OM_WM_SPELLS_MAX);
        om_army_free(army);
        return st;
    }
    for (size_t k = 0; k < army->spells_count; k++) {
        const om_army_spell *as = &army->spells[k];
        const om_wm_spell_rule *r = om_wm_spell_rule_find(l->ruleset, l->army, as->id);
        om_wm_spell *sp = &b->spell[side][k];
        if (r == NULL) {
            st = OM_ERROR(OM_EINVAL, "spell '%s' of %s/%s has no row in the table of spell "
                          "effects", as->id, l->ruleset, l->army);
            om_army_free(army);
            return st;
        }
        *sp = (om_wm_spell){.cast = (uint8_t)as->roll,
                            .range_cm = (uint8_t)(as->range_cm < 255 ? as->range_cm : 255),
                            .effect = r->effect, .attacks = r->attacks, .d3 = r->d3,
                            .no_save = r->no_save, .drive_back = r->drive_back,
                            .sight = r->sight, .per_stand = r->per_stand,
                            .all_in_range = r->all_in_range, .own_unit = r->own_unit,
                            .with_characters = r->with_characters,
                            .with_caster = r->with_caster, .lasting = r->lasting,
                            .amount = r->amount, .phase = r->phase, .aura = r->aura,
                            .unengaged = r->unengaged, .troops = r->troops};
        snprintf(sp->id, sizeof sp->id, "%s", as->id);
        b->barred[side][k] = (om_wm_unit_set){0};
        for (size_t i = 0; i < l->n_units; i++)
            if ((r->only != NULL && !listed(r->only, l->units[i].id)) ||
                (r->not_on != NULL && listed(r->not_on, l->units[i].id)))
                om_wm_unit_set_add(&b->barred[side][k], index[i]);
    }
    b->n[side] = (uint8_t)army->spells_count;
    for (size_t c = 0; c < l->n_characters; c++) {
        const unsigned i = first_character + (unsigned)c;
        if (i >= OM_WM_TABLE_MAX_CHARACTERS)
            break;
        b->knows[i] = l->characters[c].kind == OM_WM_WIZARD
                          ? (uint8_t)((1u << b->n[side]) - 1u) : 0;
        b->anti_magic[i] = anti_magic_rule(om_army_unit_find(army, l->characters[c].id));
        b->devices[i] = (uint8_t)om_wm_spells_device_of_item(l->characters[c].item);
    }
    om_army_free(army);
    return OM_OK;
}
