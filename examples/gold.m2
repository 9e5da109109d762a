S Do one who suffered from this disease keep it a secret of infrom their relatives ?
A 0 1|||R:VERB:SVA|||Does|||REQUIRED|||-NONE-|||0
A 3 4|||R:VERB:TENSE|||suffers|||REQUIRED|||-NONE-|||0
A 11 12|||R:SPELL|||or|||REQUIRED|||-NONE-|||0
A 12 13|||R:SPELL|||inform|||REQUIRED|||-NONE-|||0
A 0 1|||R:VERB:SVA|||Does|||REQUIRED|||-NONE-|||1
A 1 2|||R:OTHER|||anyone|||REQUIRED|||-NONE-|||1
A 3 4|||R:VERB:TENSE|||suffers|||REQUIRED|||-NONE-|||1
A 9 10|||U:DET||||||REQUIRED|||-NONE-|||1
A 11 13|||R:OTHER|||from|||REQUIRED|||-NONE-|||1

S When we are diagonosed out with certain genetic disease , should we disclose this result to our relatives ?
A 3 4|||R:SPELL|||diagnosed|||REQUIRED|||-NONE-|||0
A 4 5|||U:PART||||||REQUIRED|||-NONE-|||0
A 8 9|||R:NOUN:NUM|||diseases|||REQUIRED|||-NONE-|||0
A 3 4|||R:SPELL|||diagnosed|||REQUIRED|||-NONE-|||1
A 4 5|||U:PART||||||REQUIRED|||-NONE-|||1
A 6 6|||M:DET|||a|||REQUIRED|||-NONE-|||1

S Genetic testing is a very personal decision .
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||0
A -1 -1|||noop|||-NONE-|||REQUIRED|||-NONE-|||1

S The boy walk to school every days .
A 2 3|||R:VERB:SVA|||walks|||REQUIRED|||-NONE-|||0
A 6 7|||R:NOUN:NUM|||day|||REQUIRED|||-NONE-|||0
A 2 3|||R:VERB:SVA|||walks|||REQUIRED|||-NONE-|||1
A 6 7|||R:NOUN:NUM|||day|||REQUIRED|||-NONE-|||1
