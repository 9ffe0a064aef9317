class mydata {}
