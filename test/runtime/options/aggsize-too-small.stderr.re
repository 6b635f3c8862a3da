dtx: .*
