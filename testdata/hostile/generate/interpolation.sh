#!/bin/bash
# expect: 1 MaxExpressionDepth
# command: parse --validate
printf '$x = "'
yes '${[' | head -n 200000 | tr -d '\n'
yes ']}' | head -n 200000 | tr -d '\n'
echo '"'
