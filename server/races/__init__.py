"""Race rooms: members, countdown, one deal for every racer, progress, standings."""
