from execsynth.cli import main

main()
