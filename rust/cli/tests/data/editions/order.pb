
t
order.protoshop"R
Order
id (Rid
note (	BªRnote

quantities (R
quantitiesbeditionspè