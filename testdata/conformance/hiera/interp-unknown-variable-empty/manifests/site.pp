notify { "v=[${lookup('v')}]": }
