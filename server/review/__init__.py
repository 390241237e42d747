"""Result review: ranked results played faster than a person plays are held for an operator."""
