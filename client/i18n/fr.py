# ruff: noqa: RUF001, RUF002, E501
"""Les mots du client terminal en français : clé -> texte, emplacements ``{nom}``.

Chaque clé de en.py est ici, avec les mêmes emplacements (tests/client/test_i18n.py) ; là où le
client du navigateur dit la même chose (client/web/js/i18n/fr.js), c’est avec les mêmes mots.
"""

from __future__ import annotations

from client.i18n.fr_rooms import FR_ROOMS

FR: dict[str, str] = {
    # the footer's keys (Binding descriptions)
    "key.quit": "Quitter",
    "key.back": "Retour",
    "key.close": "Fermer",
    "key.reload": "Recharger",
    "key.start": "Commencer",
    "key.new_game": "Nouvelle",
    "key.daily": "Du jour",
    "key.leaderboard": "Classement",
    "key.arenas": "Arènes",
    "key.profile": "Profil",
    "key.account": "Compte",
    "key.replay": "Revoir",
    "key.race": "Course",
    "key.join": "Rejoindre",
    "key.watch": "Regarder",
    "key.option": "Option",
    "key.winnable": "Gagnable",
    "key.boards": "Tables",
    "key.deal": "Donner",
    "key.undo": "Annuler",
    "key.hint": "Indice",
    "key.play_hint": "Jouer l’indice",
    "key.auto": "Auto",
    "key.foundation": "Fondation",
    "key.more": "Plus",
    "key.fewer": "Moins",
    "key.redo": "Rétablir",
    "key.resign": "Abandon",
    "key.restart": "Recommencer",
    "key.moves": "Coups",
    "key.challenge": "Défi",
    "key.verify": "Vérifier",
    "key.could_win": "Gagnable ?",
    # the title bar and the link
    "title.reconnecting": "{where} : reconnexion…",
    "title.disconnected": "{where} : déconnecté",
    "link.reconnected": "reconnecté",
    "link.reconnected_game": "reconnecté : la partie est telle que le serveur la garde",
    "link.retrying": "{why}\nnouvel essai dans {delay} s (ctrl+q quitte)",
    "link.reconnecting": "reconnexion…",
    "link.closed": "la connexion a été fermée",
    "link.lost": "la connexion a été perdue",
    "link.lost_retrying": "connexion perdue ; nouvel essai dans {delay} s",
    "link.disconnected": "déconnecté",
    "link.waiting.one": "{n} coup en attente",
    "link.waiting.many": "{n} coups en attente",
    "race.over_notice": "la course est finie : voyez le classement",
    # refusals and failures (client/connection.py)
    "error.bad_token": (
        "ce serveur ne connaît pas notre jeton enregistré ni ce code de compte (expiré, déjà"
        " servi, ou remplacé par un plus récent ?)"
    ),
    "error.banned": "ce compte est banni de ce serveur",
    "error.protocol_mismatch": (
        "ce serveur parle une autre version du protocole : mettez le client à jour"
    ),
    "error.name_taken": "ce nom est pris sur ce serveur : choisissez-en un autre",
    "error.name_looks_taken": (
        "ce nom ressemble trop au nom d’un joueur d’ici (I et l, O et 0 se ressemblent) : "
        "choisissez-en un autre"
    ),
    "error.invalid_name": "un nom a 1 à 24 lettres, chiffres, _ ou -",
    "error.too_many_accounts": (
        "trop de joueurs inscrits depuis cette adresse ces derniers temps : réessayez plus tard"
    ),
    "error.rate_limited": "trop rapide : le serveur demande de ralentir",
    "error.forbidden": "cette partie est celle de quelqu’un d’autre",
    "error.game_over": "cette partie est terminée",
    "error.daily_locked": "cette donne est celle du jour : jouez-la d’abord comme défi du jour",
    "error.room_full": "ce salon est plein",
    "error.not_host": "seul l’hôte peut faire cela",
    "error.race_in_progress": "une course est en cours dans ce salon : attendez qu’elle finisse",
    "error.not_in_room": "vous n’êtes pas dans ce salon",
    "error.no_racers": "personne dans le salon n’est connecté pour courir",
    "error.too_many_rooms": "vous êtes dans trop de salons : quittez-en un d’abord",
    "error.hints_off": (
        "pas d’indice dans cette partie (une tentative du jour, ou une course sans indices)"
    ),
    "error.busy": "le serveur calcule encore d’autres indices : redemandez dans un instant",
    "error.race_locked": "vous faites la course sur cette donne : finissez d’abord la course",
    "error.daily_open": (
        "finissez d’abord la tentative du jour : l’entraînement ouvre une fois qu’elle est finie"
    ),
    "error.too_many_actions": (
        "cette partie a atteint sa limite d’actions : il ne reste qu’à abandonner"
    ),
    "error.with_detail": "{hint} ({detail})",
    "error.stale_ply": "la partie avait avancé (une autre fenêtre ?) : votre coup n’a pas été joué ; voici la table du serveur",
    "error.timeout": "le serveur n’a pas répondu à temps : réessayez",
    "error.unreachable": "impossible de joindre le serveur : {why}",
    # the engine's frame around a refusal, and names the board gives (client/names.py)
    "refusal.frame": "{move} n’est pas jouable maintenant : {reason}",
    "name.stock": "talon",
    "name.foundation": "fondation",
    "name.deal": "donner (espace)",
    "name.auto": "auto (a)",
    "name.cards": "{move} ({n} cartes)",
    "name.deal_keyed": "donne {start}",
    # fields (client/fields.py)
    "field.code_empty": "tapez le code du salon que votre ami vous a donné",
    "field.code_length": (
        "un code de salon a {length} caractères, comme K7QF2M ; {code} en a {typed}"
    ),
    "field.code_look_alike": (
        "les codes de salon n’ont pas de {shown} : 0, 1, I et O en sont exclus parce qu’ils se"
        " lisent comme d’autres caractères ; vérifiez le code que votre ami vous a donné"
    ),
    "field.code_letters": (
        "un code de salon n’a que des lettres et des chiffres, comme K7QF2M ; {shown} ne peut"
        " pas y être"
    ),
    "field.seed": "les numéros de donne vont de 1 à {max} ; {seed} n’en est pas un",
    "field.date": "un jour s’écrit AAAA-MM-JJ, comme 2026-01-02 ; {date} n’en est pas un",
    # the name and wait screens
    "name.welcome": "Bienvenue ! Choisissez un nom de joueur pour ce serveur.",
    "name.rule": "1 à 24 lettres, chiffres, _ ou -.",
    "name.placeholder": "votre nom",
    "name.transfer": (
        "Ou jouez avec votre compte d’un autre appareil : là-bas, appuyez sur t à l’accueil"
        " pour un code, et tapez-le ici."
    ),
    "name.transfer_placeholder": "code de compte, comme K7QF-2MXP",
    "name.transfer_empty": "tapez le code que montre l’autre appareil",
    "wait.title": "Patience Club : connexion à {url}",
    "wait.connecting": "Connexion…",
    # home
    "home.seed": "donne n°",
    "home.new_game": "Nouvelle",
    "home.daily": "Du jour",
    "home.leaderboard": "Classement",
    "home.no_options": "{name} n’a pas d’option",
    "home.rule_said": "les courses que vous créez (c) : {rule}",
    "home.rated_race": "Course classée",
    "home.boards_rule": "Tables : {rule}",
    "home.type_code": "tapez le code du salon que votre ami vous a donné, puis Entrée",
    "home.paste_challenge": (
        "collez le lien du défi que votre ami a envoyé (ou son code), puis Entrée"
    ),
    "home.races": "Courses entre amis",
    "home.create_race": "Créer",
    "home.room_code": "code",
    "home.join": "Entrer",
    "home.watch": "Voir",
    "home.challenges": "Défis",
    "home.challenge_code": "code ou lien",
    "home.accept": "Accepter",
    "home.you": "Vous : p profil, t compte",
    "home.continue": "Reprendre une partie",
    "home.unfinished": "{name} {kind}{deal} {moves} {time}",
    "home.kind": "{kind} ",
    "stats.line": "{name} : {parts}",
    "home.games": "Jeux (v : {kind} ; y : revoir)",
    "home.any_deal": "toute donne",
    "home.winnable": "gagnable, {difficulty}",
    "difficulty.easy": "facile",
    "difficulty.medium": "moyenne",
    "difficulty.hard": "difficile",
    "rule.live": "en direct",
    "rule.delayed": "en retard",
    "rule.hidden": "cachées",
    "rule.said.live": "course amicale : les spectateurs voient les jeux en direct",
    "rule.said.delayed": (
        "course amicale : les spectateurs voient les jeux en retard (une minute, par défaut)"
    ),
    "rule.said.hidden": (
        "course amicale : les spectateurs voient la progression seulement, les jeux à la fin"
    ),
    "rule.said.rated": (
        "course classée : donne secrète, humains seulement, aucun jeu montré avant la fin"
    ),
    "daily.not_finished": "jour : pas encore finie",
    "daily.held": "retenue",
    "daily.line": "jour {rank} {state} {time} {moves} coups",
    "kind.daily": "du jour",
    "kind.practice": "entraînement",
    "kind.race": "course",
    "kind.challenge": "défi",
    "moves.one": "{n} coup",
    "moves.many": "{n} coups",
    "stats.none_here": "les statistiques ne sont pas disponibles sur ce serveur",
    "stats.won": "{won}/{finished} gagnées",
    "stats.unfinished": "{n} en cours",
    "stats.best": ", meilleur {time}",
    "stats.fewest": ", {n} coups au moins",
    "stats.no_games": "aucune partie pour l’instant",
    "stats.streak": "série quotidienne : {n}",
    "stats.dailies_won": "  défis gagnés : {n}",
    # states of a game
    "state.playing": "en cours",
    "state.won": "gagnée",
    "state.stuck": "bloquée",
    "state.resigned": "abandonnée",
    "state.timeout": "temps écoulé",
    # the daily's start step
    "daily.terms": (
        "Une tentative classée par jour, la même donne pour tous. Rien n’est distribué avant"
        " que vous commenciez ; le chrono part alors et ne s’arrête jamais. Pas d’indices ; les"
        " annulations sont permises et comptées."
    ),
    "daily.intro_title": "{name} du jour, {date}",
    "daily.streak.one": "Votre série quotidienne : {n} jour",
    "daily.streak.many": "Votre série quotidienne : {n} jours",
    "daily.commitment": "engagement de la donne : {start}…",
    "daily.start": "Commencer",
    "board.daily_title": "{name} du jour {day}",
    "board.race_title": "{name} course",
    # the board
    "board.won": "gagné ! toutes les cartes sont posées",
    "board.stuck": (
        "bloquée : plus aucune carte ne peut atteindre une fondation ; annulez (u) ou"
        " abandonnez (R)"
    ),
    "board.resigned": "partie abandonnée",
    "board.timeout": "temps écoulé",
    "board.won_in": "gagné en {time} avec {moves} coups : toutes les cartes sont posées !",
    "board.verify_offer": "  la clé de la donne est montrée : v la montre, et comment vérifier",
    "board.score": "  score {score}/{max}",
    "board.moves": "  coups {n}",
    "board.stock": "  talon {n}",
    "board.waste": "  défausse {n}",
    "board.redeals": "  redonnes {n}",
    "board.nothing_to_pick": "rien à prendre sur {pile}",
    "board.picked": "depuis {pile} : choisissez la destination (+/- pour plus ou moins de cartes)",
    "board.count": "depuis {pile} : {n} carte(s)",
    "board.pick_first": (
        "choisissez d’abord une carte (ou appuyez sur a pour envoyer toutes celles qui peuvent)"
    ),
    "board.resign_again": (
        "appuyez encore sur R pour abandonner cette partie ; toute autre touche continue"
    ),
    "board.watching": "vous regardez : cette table n’est pas la vôtre",
    "board.no_move": "pas encore de coup",
    "board.moves_title": "Coups\n{moves}",
    "board.moves_before.one": "{n} action avant l’ouverture de cette table",
    "board.moves_before.many": "{n} actions avant l’ouverture de cette table",
    "board.nothing_to_redo": "rien à rétablir : rétablir rejoue ce que l’annulation a repris",
    "board.restart_again": (
        "appuyez encore sur S pour recommencer : cette partie est abandonnée, la même donne"
        " distribuée à nouveau"
    ),
    "board.still_secret": (
        "cette donne est encore secrète : elle ne peut pas encore être redistribuée"
    ),
    "board.dealt_again": "la même donne, distribuée à nouveau depuis le début",
    "board.no_hint": (
        "pas d’indice : la partie est finie, ou chaque coup ramène à une position déjà vue"
    ),
    "board.hint": "indice : {move} (Entrée le joue)",
}

FR.update(
    {
        "option.deal_three": "donner par trois",
        "option.autoplay": "jeu automatique",
        "glyph.J": "V",
        "glyph.Q": "D",
        "glyph.K": "R",
        "refusal.frame_plain": "{move} n’est pas jouable : {reason}",
        # the engine's reasons, as the browser says them (client/web/js/i18n/fr.js)
        "reason.self": "{p} ne peut pas aller sur elle-même",
        "reason.empty": "{p} est vide",
        "reason.only": "{p} n’a que {n} cartes",
        "reason.only_up": "{p} n’a que {n} cartes face visible",
        "reason.top_down": "la carte du dessus de {p} est face cachée",
        "reason.not_build": (
            "{b} sur {a} n’est pas une suite : les couleurs alternent et les rangs descendent d’un"
        ),
        "reason.one_at_a_time": "une seule carte à la fois va sur une fondation",
        "reason.no_foundation": "aucune fondation ne prend {c}",
        "reason.ace_first": "{c} ne peut pas commencer {f} : une fondation vide ne prend qu’un as",
        "reason.same_suit_up": (
            "{c} ne peut pas aller sur {u} dans {f} : il faut la même enseigne, un rang au-dessus"
        ),
        "reason.other_colour_down": (
            "{c} ne peut pas aller sur {u} : il faut l’autre couleur, un rang en dessous"
        ),
        "reason.other_colour": "{c} ne peut pas aller sur {u} : il faut l’autre couleur",
        "reason.rank_lower": "{c} ne peut pas aller sur {u} : il faut un rang en dessous",
        "reason.different_suit": "{c} ne peut pas aller sur {u} : il faut une autre enseigne",
        "reason.no_base": "{c} ne peut pas aller sur {f} : {g} n’a pas encore de carte de base",
        "reason.base_suit": (
            "{c} ne peut pas aller sur {f} : {g} ne prend que l’enseigne de base ({suit})"
        ),
        "reason.not_started": "{c} ne peut pas commencer {f} : {g} n’est pas encore commencée",
        "reason.only_suit": "{c} ne peut pas aller sur {f} : {g} ne prend qu’une enseigne ({suit})",
        "reason.not_yet": (
            "{c} ne peut pas aller sur {f} : ce rang ({rank}) n’est pas encore sur {g}"
        ),
        "reason.no_stock": "{name} n’a pas de talon",
        "reason.stock_done": "le talon est vide et il ne reste aucune redonne",
        "reason.stock_waste_empty": "le talon et la défausse sont vides",
        "reason.stock_by_deal": "les cartes ne quittent le talon qu’en donnant",
        "reason.nothing_on_stock": "on ne pose jamais rien sur le talon",
        "reason.nothing_on_waste": "seule la donne pose des cartes sur la défausse",
        "reason.nothing_on_reserve": "on ne pose jamais rien sur une réserve comme {p}",
        "reason.nothing_on": "on ne peut rien poser sur {p}",
        "reason.only_top": "seule la carte du dessus de {p} peut bouger",
        "reason.only_top_waste": "seule la carte du dessus de la défausse peut bouger",
        "reason.only_top_foundation": "seule la carte du dessus d’une fondation peut bouger",
        "reason.foundations_fixed": "dans ce jeu, les cartes des fondations sont hors jeu",
        "reason.cell_one": "une cellule libre ne tient qu’une carte",
        "reason.cell_full": "{p} n’est pas vide",
        "reason.too_many": (
            "{n} cartes ne peuvent pas bouger d’un coup : avec {cells} cellules libres vides et"
            " {cols} autres colonnes vides, la limite est {limit}"
        ),
        "reason.stuck": (
            "la partie est bloquée : plus aucune carte ne peut atteindre une fondation ; seule"
            " l’annulation est possible"
        ),
        "reason.over": "la partie est finie ({state})",
        "reason.auto_nothing": "aucune carte ne peut aller sur une fondation maintenant",
        "reason.nothing_to_undo": "rien à annuler : la table est telle que donnée",
    }
)
FR.update(FR_ROOMS)
