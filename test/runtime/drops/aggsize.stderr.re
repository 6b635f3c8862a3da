dtx: 80 aggregation drops on CPU [0-9]+
