dtx: 7 drops on CPU [0-9]+
