dtx: 76 dynamic variable drops
