from recipe import Recipe


def main():
    recipe = Recipe({"mode": "finetune"})
    recipe.setup()
    recipe.run()


if __name__ == "__main__":
    main()
