S Do one who suffered from this disease keep it a secret of infrom their relatives ?
A 3 4|||R:VERB:TENSE|||suffer|||REQUIRED|||-NONE-|||0
A 11 12|||R:PART|||to|||REQUIRED|||-NONE-|||0
A 12 13|||R:SPELL|||inform|||REQUIRED|||-NONE-|||0

S When we are diagonosed out with certain genetic disease , should we disclose this result to our relatives ?
A 3 4|||R:SPELL|||diagnosed|||REQUIRED|||-NONE-|||0
A 8 9|||R:NOUN:NUM|||diseases|||REQUIRED|||-NONE-|||0
A 13 14|||R:DET|||the|||REQUIRED|||-NONE-|||0
A 16 17|||R:DET|||his|||REQUIRED|||-NONE-|||0

S Genetic testing is a very personal decision .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0

S The boy walk to school every days .
A 2 3|||R:VERB:SVA|||walks|||REQUIRED|||-NONE-|||0
A 4 4|||M:DET|||the|||REQUIRED|||-NONE-|||0
A 6 7|||R:NOUN:NUM|||day|||REQUIRED|||-NONE-|||0
