"""The survival event (seed 000 §三.2 勇者争先赛) while it runs: the draw from the individual
event, the tables the referee confirms, and the box configs that follow from them."""
