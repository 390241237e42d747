// Les règles des cinq jeux en français, dans nos propres mots (docs/rules.md fait référence ;
// la disposition et les termes suivent l'aide d'Aisleriot en français).

export const rulesFr = {
  osmosis: {
    layout: 'Quatre réserves à gauche, chacune avec une fondation à côté ; le talon et la défausse en haut. Chaque réserve commence avec trois cartes face cachée sous une carte visible ; une carte commence la première fondation.',
    goal: 'Poser les 52 cartes sur les fondations.',
    moves: [
      'Seule la carte du dessus d’une réserve ou de la défausse bouge, et seulement vers une fondation. On ne pose jamais rien sur une réserve, et les cartes des fondations ne bougent plus.',
      'La première fondation prend toutes les cartes de l’enseigne de base (celle de la carte qui y est donnée), dans n’importe quel ordre.',
      'Chaque autre fondation commence par une carte du rang de base, une fois celle du dessus commencée ; elle prend ensuite les cartes de sa propre enseigne, mais seulement dans les rangs que la fondation du dessus possède déjà.',
    ],
    stock: 'Donner retourne une carte sur la défausse. Quand le talon est vide, donner retourne la défausse : deux redonnes, trois passages en tout.',
    scoring: 'Un point par carte sur les fondations : 1 au départ, 52 pour une victoire.',
    options: 'Donner par trois : trois cartes par donne et redonnes illimitées.',
    tip: 'Commencez la fondation suivante dès que possible : un rang posé sur la première l’ouvre pour les autres. Repérez quelle réserve cache les cartes utiles.',
  },
  thumb_and_pouch: {
    layout: 'Sept colonnes ; la première a une carte, chacune la suivante une de plus, celle du dessus visible. Talon, défausse et quatre fondations en haut.',
    goal: 'Poser les 52 cartes sur les fondations, chaque enseigne de l’as au roi.',
    moves: [
      'Une carte se pose sur la carte du dessus d’une colonne d’un rang plus haut et d’une autre enseigne (couleur libre : 7\u2666 va sur 8\u2665).',
      'Toute carte visible bouge avec toutes les cartes au-dessus, en suite ou non. Toute carte ou tout groupe peut aller dans une colonne vide.',
      'La carte du dessus de la défausse ou d’une fondation peut aussi bouger : les cartes des fondations restent en jeu.',
    ],
    stock: 'Donner retourne une carte sur la défausse ; deux redonnes.',
    scoring: 'Un point par carte sur les fondations ; 52 pour une victoire.',
    options: 'Aucune.',
    tip: 'Découvrez d’abord les cartes cachées : les longues colonnes de droite en cachent le plus.',
  },
  gypsy: {
    layout: 'Deux jeux. Huit colonnes de trois cartes (deux cachées, une visible) ; le talon et huit fondations en haut ; pas de défausse.',
    goal: 'Poser les 104 cartes sur les huit fondations, deux par enseigne, de l’as au roi.',
    moves: [
      'Une carte se pose sur la carte du dessus d’une colonne de l’autre couleur et d’un rang plus haut.',
      'Une suite (couleurs alternées, rangs descendant d’un) bouge d’un bloc, quelle que soit sa longueur. Toute carte ou suite peut aller dans une colonne vide.',
      'La carte du dessus d’une fondation peut revenir sur une colonne.',
    ],
    stock: 'Donner pose une carte visible sur chaque colonne. Pas de redonne : dix donnes vident le talon.',
    scoring: '5 points par carte sur les fondations, 60 de plus par enseigne complète, et 2 par paire de cartes visibles voisines d’une colonne qui forment une suite. 1000 pour une victoire (104 \u00d7 5 + 8 \u00d7 60).',
    options: 'Aucune.',
    tip: 'Videz une colonne avant de donner : chaque donne couvre chaque colonne d’une carte de plus.',
  },
  freecell: {
    layout: 'Toutes les cartes visibles en huit colonnes ; quatre cellules libres et quatre fondations en haut ; pas de talon.',
    goal: 'Poser les 52 cartes sur les fondations, chaque enseigne de l’as au roi.',
    moves: [
      'Une carte se pose sur la carte du dessus d’une colonne de l’autre couleur et d’un rang plus haut, dans une cellule libre vide (une carte chacune), ou sur une fondation.',
      'Une suite bouge d’un bloc s’il y a la place de la déplacer carte par carte : (cellules libres vides + 1) \u00d7 2 puissance le nombre de colonnes vides.',
      'Toute carte ou suite peut aller dans une colonne vide. Les cartes des fondations y restent.',
    ],
    stock: 'Pas de talon : toutes les cartes sont données visibles dès le départ.',
    scoring: 'Un point par carte sur les fondations ; 52 pour une victoire.',
    options: 'Jeu automatique (par défaut) : après chaque coup, les cartes dont plus aucune autre n’a besoin vont seules aux fondations.',
    tip: 'Gardez les cellules libres vides aussi longtemps que possible, et libérez tôt les as et les deux. Presque toutes les donnes se gagnent.',
  },
  westhaven: {
    layout: 'Dix colonnes de trois cartes (deux cachées, une visible) ; talon, défausse et quatre fondations en haut.',
    goal: 'Poser les 52 cartes sur les fondations, chaque enseigne de l’as au roi.',
    moves: [
      'Une carte se pose sur la carte du dessus d’une colonne de l’autre couleur et d’un rang plus haut.',
      'D’une colonne, on déplace soit la carte du dessus seule, soit toute sa partie visible ; jamais un morceau de suite entre les deux.',
      'Toute carte, ou toute la partie visible d’une colonne, peut aller dans une colonne vide. Les cartes des fondations y restent.',
    ],
    stock: 'Donner retourne une carte sur la défausse. Pas de redonne : le talon ne passe qu’une fois.',
    scoring: 'Un point par carte sur les fondations ; 52 pour une victoire.',
    options: 'Aucune.',
    tip: 'Seules les parties visibles entières bougent : ne bâtissez de longues suites que là où vous n’aurez pas à les couper.',
  },
};
