"""Storage: the database engine, the models, migrations, the group-commit writer and queries."""
