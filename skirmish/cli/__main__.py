from skirmish.cli import main

main()
