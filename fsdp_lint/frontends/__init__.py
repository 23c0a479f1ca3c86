"""What users run the static linter through: the CLI, the flake8 plugin, the configuration they
share, the output formats and the rule pages. Front ends only render what the engine found."""
